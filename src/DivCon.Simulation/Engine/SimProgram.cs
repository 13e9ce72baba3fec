using DivCon.Partitioning;

namespace DivCon.Simulation.Engine;

/// <summary>A program inside one simulation: its tree shape, its pool, and the runs it recorded.</summary>
internal sealed class SimProgram
{
    public required int Index { get; init; }

    public required TaskTreeShape Shape { get; init; }

    /// <summary>Base seed of its runs; run k's tree depends only on (this, k).</summary>
    public required ulong Seed { get; init; }

    /// <summary>Where its runs' root tasks are queued (its own pool, or the shared one).</summary>
    public required WorkPool Pool { get; init; }

    /// <summary>Index of the first run (isolated and multiprogram phases use disjoint run numbers).</summary>
    public int FirstRunIndex { get; init; }

    /// <summary>Scalability the policies are told (T_seq / C^SP on all cores).</summary>
    public double Scalability { get; init; } = 1;

    public ScalabilityTable? Table { get; init; }

    public ProgramRun? Current { get; set; }

    public int RunsStarted { get; set; }

    public List<long> Durations { get; } = [];

    public List<long> RunWorkNs { get; } = [];
}
