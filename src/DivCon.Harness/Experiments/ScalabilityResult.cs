using DivCon.Metrics.Results;

namespace DivCon.Harness.Experiments;

/// <summary>
/// The result of <see cref="ScalabilityExperiment"/> (thesis Figures 7.3–7.4), the record <c>scalability.json</c>
/// holds; speedup = mean T_s / mean T_P.
/// </summary>
/// <param name="Settings">Programs, size, runs, the N processors.</param>
/// <param name="Selections">How the P processors of each point were chosen.</param>
/// <param name="Programs">One per program, in the order asked for.</param>
public sealed record ScalabilityResult(ExperimentSettings Settings, IReadOnlyList<ProcessorSelection> Selections, IReadOnlyList<ScalabilityProgramResult> Programs)
    : ExperimentFile(FileKind)
{
    /// <summary>The file kind and base name.</summary>
    public const string FileKind = "scalability";

    /// <summary>The lowercase name of a selection, as in the files.</summary>
    public static string Name(ProcessorSelection selection) => selection.ToString().ToLowerInvariant();
}
