namespace DivCon.Simulation;

/// <summary>One simulated cyclic test: a workload of program models on a number of cores under some schemes.</summary>
public sealed record SimulationRequest
{
    /// <summary>Virtual cores; positive.</summary>
    public required int Cores { get; init; }

    /// <summary>The workload's programs (at least one; names distinct).</summary>
    public required IReadOnlyList<ProgramModel> Programs { get; init; }

    /// <summary>Names of simulated schemes of the <see cref="Metrics.Schemes.SchemeCatalog"/>.</summary>
    public required IReadOnlyList<string> Schemes { get; init; }

    /// <summary>Seed of every random choice (victims, split fractions).</summary>
    public ulong Seed { get; init; } = 1;

    /// <summary>Length of the multiprogram phase, simulated ns.</summary>
    public long DurationNs { get; init; } = 30_000_000_000;

    /// <summary>Isolated runs per program for C^SP (§5.4.1: 5).</summary>
    public int SpRuns { get; init; } = 5;

    /// <summary>
    /// Repetitions of the whole cyclic test, each with its own seed (the first with <see cref="Seed"/>); scheme-level
    /// intervals and significance need at least 2 (the thesis averaged over 21).
    /// </summary>
    public int Repeat { get; init; } = 1;

    /// <summary>
    /// Partitioned schemes give their policy each program's online scalability estimate (the scheduler's estimator,
    /// observed at every tick: docs/online-scalability.md) instead of the model's scalability. Default false.
    /// </summary>
    public bool OnlineScalability { get; init; }

    /// <summary>Costs of the machine and schedulers.</summary>
    public SimulationParameters Parameters { get; init; } = new();

    /// <summary>Every problem with the request, one sentence each; empty when it can run.</summary>
    public IReadOnlyList<string> Validate()
    {
        var problems = new List<string>();
        problems.AddIf(Cores < 1, $"Cores must be at least 1; got {Cores}.");

        problems.AddIf(Programs is not { Count: > 0 }, "A workload needs at least one program.");
        problems.AddRange((Programs ?? []).SelectMany(model => model.Validate()));
        problems.AddRange((Programs ?? []).GroupBy(p => p.Name, StringComparer.Ordinal).Where(g => g.Count() > 1)
            .Select(dup => $"Program '{dup.Key}' appears more than once in the workload."));
        problems.AddIf(Schemes is not { Count: > 0 }, "Give at least one scheme.");
        problems.AddRange((Schemes ?? []).Where(name => !SchemeCatalog.Simulated.Any(s => s.Name == name))
            .Select(name => $"Unknown scheme '{name}'; use one of: {string.Join(", ", SchemeCatalog.Simulated)}."));

        problems.AddIf(DurationNs <= 0, $"The duration must be positive; got {DurationNs} ns.");
        problems.AddIf(Repeat < 1, $"Repeat must be at least 1; got {Repeat}.");
        problems.AddIf(SpRuns < 1, $"SpRuns must be at least 1; got {SpRuns}.");

        problems.AddRange(Parameters.Validate());
        return problems;
    }
}
