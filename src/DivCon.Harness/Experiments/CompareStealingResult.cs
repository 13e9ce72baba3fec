using DivCon.Metrics.Results;
using DivCon.Metrics.Statistics;

namespace DivCon.Harness.Experiments;

/// <summary>The record <c>compare-stealing.json</c> holds: every run, and the two-factor ANOVA (program × stealing scope) of their times.</summary>
/// <param name="Note">What this machine's topology means for the comparison.</param>
/// <param name="CacheGroups">The last-level cache groups this machine reported.</param>
/// <param name="StealingGroups">The groups both scopes stole with (<c>detected</c>, <c>per-worker</c> or explicit).</param>
/// <param name="Workers">Workers of each scheduler.</param>
/// <param name="Size">The problem size.</param>
/// <param name="Replications">Runs per program and scope.</param>
/// <param name="Runs">Every recorded run.</param>
/// <param name="Anova">Effects, intervals and the ANOVA table.</param>
/// <param name="Contrast">The difference CacheGroupFirst − All with its interval.</param>
public sealed record CompareStealingResult(
    string Note, int CacheGroups, string StealingGroups, int Workers, string Size, int Replications,
    IReadOnlyList<StealingRun> Runs, TwoFactorAnovaResult Anova, EffectInterval Contrast) : ExperimentFile(FileKind)
{
    /// <summary>The file kind and base name.</summary>
    public const string FileKind = "compare-stealing";
}
