namespace DivCon.Simulation.Validation;

/// <summary>What <c>divcon simulate validate</c> measured and simulated.</summary>
/// <param name="Size">Problem size name.</param>
/// <param name="Cores">N: processors used (P = 1 … N alone; the cyclic tests on all N).</param>
/// <param name="Runs">Timed runs per P alone (after <paramref name="Warmup"/> untimed ones); also the simulated runs per P.</param>
/// <param name="Warmup">Untimed runs before the timed ones (isolated and C^SP).</param>
/// <param name="DurationSeconds">Each scheme's multiprogram phase, measured and simulated.</param>
/// <param name="SpRuns">C^SP runs per program.</param>
/// <param name="Seed">Seed of the programs' inputs and of the simulator.</param>
/// <param name="Schemes">The schemes compared.</param>
/// <param name="Parameters">The simulator's costs (its memory contention included).</param>
public sealed record ValidationSettings(
    string Size, int Cores, int Runs, int Warmup, double DurationSeconds, int SpRuns, int Seed, IReadOnlyList<string> Schemes, SimulationParameters Parameters);
