using System.Text.Json.Serialization;
using DivCon.Harness.Programs;
using DivCon.Scheduling;

namespace DivCon.Harness.Experiments;

/// <summary>
/// What the isolated-program experiments (<c>scalability</c>, <c>granularity</c>, <c>phases</c>) share: which sample
/// programs, their size and seed, how many unrecorded and recorded runs per measured point, and the processors used
/// (a subset of the process's affinity mask; the largest P of each experiment).
/// </summary>
/// <param name="Programs">Catalogue names (checked against the catalogue by <see cref="ProgramCatalog.Resolve"/>), at least one, no duplicates.</param>
/// <param name="Size">The problem size.</param>
/// <param name="Runs">Recorded runs per measured point, at least 1.</param>
/// <param name="Warmup">Unrecorded runs before them, 0 or more.</param>
/// <param name="Processors">The processors available to the experiment, at least one.</param>
/// <param name="Seed">Seeds the programs' inputs.</param>
/// <param name="RunTimeout">A single run longer than this fails the experiment instead of hanging it.</param>
public sealed record ExperimentSettings(
    IReadOnlyList<string> Programs,
    WorkloadSize Size,
    int Runs,
    int Warmup,
    IReadOnlyList<int> Processors,
    int Seed,
    TimeSpan RunTimeout)
{
    /// <summary>
    /// The CPU budget the experiment's schedulers are sized against, one reading for the whole experiment (recorded in
    /// the result's machine record, not here); null: detected by each scheduler and by the result.
    /// </summary>
    [JsonIgnore]
    public CpuBudget? Budget { get; init; }
}
