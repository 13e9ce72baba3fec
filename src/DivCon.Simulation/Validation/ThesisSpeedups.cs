using System.Text;
using static DivCon.Simulation.SimulationReport;

namespace DivCon.Simulation.Validation;

/// <summary>
/// Every isolated speedup the thesis states in its text (K. Fenech, 2013), and the simulator's speedup for the same
/// program and core count with thesis-size models (<c>divcon simulate thesis</c>). Pure simulation: deterministic.
/// </summary>
public static class ThesisSpeedups
{
    /// <summary>Tolerance the issue sets on each stated speedup.</summary>
    public const double Target = 0.15;

    /// <summary>The core count of the thesis's machine (§6.1), for which the granularity is set (Figure 7.3's tree at every P).</summary>
    public const int ThesisMachineCores = 64;

    private const string ByRank =
        "the thesis does not name the three programs; compared by rank with the 3-program subset (Strassen the moderate scaler, then quicksort and mergesort, §7.2)";

    /// <summary>The stated speedups, in the order of the text.</summary>
    public static IReadOnlyList<ThesisClaim> Claims { get; } =
    [
        new("§5.3.2", "given a workload of programs that individually exhibit 23×, 13×, and 12× speedups on 64 cores", "strassen", 64, 23, ByRank),
        new("§5.3.2", "given a workload of programs that individually exhibit 23×, 13×, and 12× speedups on 64 cores", "quicksort", 64, 13, ByRank),
        new("§5.3.2", "given a workload of programs that individually exhibit 23×, 13×, and 12× speedups on 64 cores", "mergesort", 64, 12, ByRank),
        new("§5.3.4 (Figure 5.20)", "Speedup on 32 cores 15.18 10.43 9.71", "strassen", 32, 15.18, "the worked example of task-availability repartitioning; " + ByRank),
        new("§5.3.4 (Figure 5.20)", "Speedup on 32 cores 15.18 10.43 9.71", "quicksort", 32, 10.43, "the worked example of task-availability repartitioning; " + ByRank),
        new("§5.3.4 (Figure 5.20)", "Speedup on 32 cores 15.18 10.43 9.71", "mergesort", 32, 9.71, "the worked example of task-availability repartitioning; " + ByRank),
        new("§7.2", "Our Monte Carlo Pi and sum-of-squares (map-reduce) programs exhibit near-linear speedups, achieving parallel efficiencies of 90% and 89% (compared to the optimal) on 64 cores",
            "montecarlopi", 64, 0.90 * 64, "stated as 90 % efficiency: 0.90 × 64"),
        new("§7.2", "Our Monte Carlo Pi and sum-of-squares (map-reduce) programs exhibit near-linear speedups, achieving parallel efficiencies of 90% and 89% (compared to the optimal) on 64 cores",
            "sumofsquares", 64, 0.89 * 64, "stated as 89 % efficiency: 0.89 × 64"),
        new("§7.2", "Our counterpart D&C programs achieve speedups of 8.8× and 8.3× respectively over the same number of cores [16]", "quicksort", 16, 8.8, null),
        new("§7.2", "Our counterpart D&C programs achieve speedups of 8.8× and 8.3× respectively over the same number of cores [16]", "mergesort", 16, 8.3, null),
        new("§7.2", "Our corresponding speedup of 6.0× (which is 74% efficient) [quicksort, 8 cores]", "quicksort", 8, 6.0, "74 % of 8 is 5.92: the 6.0 is rounded"),
        new("§7.2.1", "improves its 16-thread speedup from 14.9× to 15.9× when dispersed", "sumofsquares", 16, 14.9,
            "contiguous allocation (one 16-core chip); the dispersed 15.9× needs a topology the simulator does not model"),
    ];

    /// <summary>
    /// Simulates each claim's program alone on its core count with <paramref name="models"/> (thesis-size models),
    /// granularity for <see cref="ThesisMachineCores"/> cores, <paramref name="runs"/> runs: speedup = T_s / T_P, with
    /// <paramref name="parameters"/> and again with no memory contention.
    /// </summary>
    /// <exception cref="ArgumentException">A claim's program has no model.</exception>
    public static ThesisComparisonFile Compare(IReadOnlyDictionary<string, ProgramModel> models, SimulationParameters parameters, int runs, string modelsName)
    {
        ArgumentNullException.ThrowIfNull(models);
        ArgumentNullException.ThrowIfNull(parameters);
        IReadOnlyDictionary<string, string> sources = SimulationValidation.Sources(models, Claims.Select(c => c.Program));
        SimulationParameters free = parameters with { MemoryContention = 0 };
        ThesisComparison[] rows = [.. Claims.Select(claim =>
        {
            double simulated = Speedup(models[claim.Program], claim.Cores, parameters, runs);
            double error = (simulated - claim.Speedup) / claim.Speedup;
            return new ThesisComparison(claim, simulated, error, Math.Abs(error) <= Target, Speedup(models[claim.Program], claim.Cores, free, runs));
        })];

        return new ThesisComparisonFile(modelsName, sources, parameters, ThesisMachineCores, runs, rows);
    }

    /// <summary>The Markdown table of <paramref name="file"/>: one row per stated speedup, a miss in bold.</summary>
    public static string Markdown(ThesisComparisonFile file)
    {
        ArgumentNullException.ThrowIfNull(file);
        var sb = new StringBuilder();
        sb.Append(F($"# Simulated isolated speedups vs the thesis's ({file.ModelsName} models at thesis size, β = {file.Parameters.MemoryContention:0.####}, granularity for {file.GranularityCores} cores, {file.Runs} runs)\n\n"));
        sb.Append("| section | program | cores | thesis | simulated | error | without contention | target |\n|---|---|---:|---:|---:|---:|---:|---|\n");
        foreach (ThesisComparison r in file.Rows)
        {
            sb.Append(F($"| {r.Claim.Section} | {r.Claim.Program} | {r.Claim.Cores} | {r.Claim.Speedup:0.##} | {r.Simulated:0.00} | {ValidationReport.Error(r.RelativeError, r.Met)} | "))
                .Append(F($"{r.WithoutContention:0.00} | {ValidationReport.Target(Target, r.Met)} |\n"));
        }

        sb.Append(F($"\nWithin ±{Target * 100:0} %: {file.Rows.Count(r => r.Met)} of {file.Rows.Count}.\n\nNotes:\n"));
        sb.AppendJoin(string.Empty, file.Rows.Where(r => r.Claim.Note is not null).GroupBy(r => r.Claim.Note)
            .Select(note => F($"- {string.Join(", ", note.Select(r => $"{r.Claim.Program} on {r.Claim.Cores}").Distinct())}: {note.Key}.\n")));
        return sb.ToString();
    }

    private static double Speedup(ProgramModel model, int cores, SimulationParameters parameters, int runs) =>
        IsolatedSimulation.Factored(model, [cores], ThesisMachineCores, parameters, seed: 1, runs).Points.First(p => (int)p.P == cores).Speedups.Actual;
}
