using DivCon.Harness.Programs;
using DivCon.Samples;
using DivCon.Samples.Sequences;
using DivCon.Samples.WorkInflation;
using DivCon.Skeletons.Sequences;

namespace DivCon.Cli.Programs;

/// <summary>
/// Where the sample programs register with the harness (which knows only its own synthetic programs): the one place
/// the command line picks the programs it can name.
/// </summary>
internal static class SamplePrograms
{
    /// <summary>The five divide-and-conquer samples of the thesis (§4.4): what the isolated experiments and calibration take.</summary>
    public static ProgramCatalog Skeletons { get; } = new(SampleCatalog.Entries.Select(e => Entry(e.Name, e.Description)));

    /// <summary>The five samples and the synthetic spin programs: what the cyclic and symmetric tests take.</summary>
    public static ProgramCatalog Workload { get; } = new([.. Skeletons.All, .. ProgramCatalog.Synthetic]);

    /// <summary>
    /// The workload programs, the work-inflation microbenchmark and the memory-bound sequence transforms (each with the
    /// default grain and window): what <c>divcon factored</c> takes.
    /// </summary>
    public static ProgramCatalog Factored { get; } = Enum.GetValues<WindowMode>().Aggregate(
        Workload.With(Entry(WorkInflationBenchmark.ProgramName, "Work-inflation microbenchmark (seed 000 §4): R passes of L additions per cell over M cells with gap G.")),
        (catalog, mode) => catalog.With(Transform(mode, SequenceTransform.DefaultGrain, null)));

    /// <summary>The sequence transform of <paramref name="mode"/> with its grain and window.</summary>
    public static ProgramEntry Transform(WindowMode mode, int grain, int? windowSize) =>
        new(SequenceTransform.NameOf(mode),
            $"Memory-bound transform on the sequence skeleton, window {mode.ToString().ToLowerInvariant()}: R passes of out[i] = f(in[i], in[i + D]) over n doubles in blocks of 64.",
            (size, seed) => SampleWorkload.Of(new SequenceTransform(mode, Size(size), SequenceTransformParameters.For(Size(size)), seed, grain, windowSize)));

    /// <summary>The samples' size for the harness's.</summary>
    public static ProblemSize Size(WorkloadSize size) => (ProblemSize)(int)size;

    private static ProgramEntry Entry(string name, string description) =>
        new(name, description, (size, seed) => SampleWorkload.Of(SampleCatalog.Create(name, Size(size), seed)));
}
