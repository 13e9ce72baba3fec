using DivCon.Simulation.Engine;

namespace DivCon.Simulation;

/// <summary>
/// The factored measurement of seed 001 §2 on the simulator: a program alone on P = 1 … N cores, with the same task
/// tree at every P (the automatic granularity for a fixed core count, as the harness's factored and scalability
/// experiments have it), turned into the very record a measurement gives (<see cref="FactoredAnalysis.Analyze"/>).
/// T_s is a run's work (Σ task cost) times <see cref="ProgramModel.BaselineRatio"/>; I_P is the core-time with no
/// task (idle cores and failed steal attempts), so F_P = P·T_P − I_P − T_1 is the simulated work inflation plus the
/// steal and wake-up costs that T_1 does not have. Deterministic.
/// </summary>
public static class IsolatedSimulation
{
    // Run numbers of these runs; the same at every P, so every P runs the same trees (common random numbers).
    private const int RunBase = 1 << 25;

    /// <summary>Simulates <paramref name="runs"/> runs of <paramref name="model"/> alone at each of <paramref name="coreCounts"/> (P = 1 is added when missing).</summary>
    /// <param name="model">The program.</param>
    /// <param name="coreCounts">The P values; each is a machine of P cores.</param>
    /// <param name="granularityCores">The core count the automatic granularity is set for (the tree's split depth).</param>
    /// <param name="parameters">Costs of the machine (its memory contention included).</param>
    /// <param name="seed">Seed of the trees and victims.</param>
    /// <param name="runs">Runs per P.</param>
    /// <exception cref="ArgumentException">The model is invalid or a count is not positive.</exception>
    public static FactoredProgramResult Factored(
        ProgramModel model, IReadOnlyList<int> coreCounts, int granularityCores, SimulationParameters parameters, ulong seed = 1, int runs = 3)
    {
        ArgumentNullException.ThrowIfNull(model);
        ArgumentNullException.ThrowIfNull(coreCounts);
        ArgumentNullException.ThrowIfNull(parameters);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(granularityCores);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(runs);
        List<string> problems = [.. model.Validate(), .. parameters.Validate()];
        problems.AddIf(coreCounts.Any(p => p < 1), $"Core counts must be positive; got {string.Join(", ", coreCounts)}.");

        if (problems.Count > 0)
        {
            throw new ArgumentException($"Cannot simulate {model.Name} alone: {string.Join(" ", problems)}", nameof(model));
        }

        var shape = new TaskTreeShape(model, granularityCores);
        Dictionary<int, CyclicSimulator.AloneRun[]> alone = coreCounts.Append(1).Distinct().ToDictionary(
            p => p, p => Enumerable.Range(0, runs).Select(k => CyclicSimulator.RunAlone(parameters, seed, shape, p, RunBase + k)).ToArray());
        IReadOnlyList<double> sequential = [.. alone[1].Select(run => run.WorkNs * (model.BaselineRatio ?? 1) / 1e9)];
        var parallel = alone.ToDictionary(
            a => a.Key, a => (IReadOnlyList<ParallelRunSample>)[.. a.Value.Select(r => new ParallelRunSample(r.DurationNs / 1e9, r.IdleNs / 1e9))]);
        return FactoredAnalysis.Analyze(model.Name, new FactoredSamples(sequential, [], new SortedDictionary<int, IReadOnlyList<ParallelRunSample>>(parallel)));
    }
}
