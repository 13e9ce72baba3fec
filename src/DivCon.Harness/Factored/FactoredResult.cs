using DivCon.Harness.Cyclic;

namespace DivCon.Harness.Factored;

/// <summary>The outcome of <c>divcon factored</c>: every program's decomposition and how it was measured.</summary>
/// <param name="StartedUtc">When the measurement started.</param>
/// <param name="ElapsedSeconds">How long it took.</param>
/// <param name="Machine">Where it ran.</param>
/// <param name="Size">The problem size name (small, medium, thesis).</param>
/// <param name="Seed">The inputs' seed.</param>
/// <param name="Settings">Worker counts, runs, warm-up runs.</param>
/// <param name="Programs">One result per program, in the order asked for.</param>
/// <param name="Stealing">How the parallel runs' schedulers stole (scope and groups), or null when not recorded.</param>
/// <param name="ProgramSettings">Per program name, a note of its own parameters (a sequence transform's window and grain), or null.</param>
public sealed record FactoredResult(
    DateTimeOffset StartedUtc,
    double ElapsedSeconds,
    MachineInfo Machine,
    string Size,
    int Seed,
    FactoredSettings Settings,
    IReadOnlyList<FactoredProgramResult> Programs,
    FactoredStealing? Stealing = null,
    IReadOnlyDictionary<string, string>? ProgramSettings = null);
