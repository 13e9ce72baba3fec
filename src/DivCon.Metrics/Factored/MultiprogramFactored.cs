using DivCon.Metrics;

namespace DivCon.Metrics.Factored;

/// <summary>
/// The factored decomposition of one program inside a multiprogram run, or the reason there is none. The program
/// held on average P = CoreSecondsHeld / IntervalSeconds cores; per run of mean time T_MP it held P·T_MP core-time
/// (in place of P·T_P) of which I = IdleSeconds / IntervalSeconds · T_MP was idle; the curves then follow
/// <see cref="FactoredAnalysis.Point"/> with that P, T_P = T_MP and I_P = I.
/// </summary>
/// <param name="Point">The decomposition (P is the mean cores held), or null.</param>
/// <param name="Reason">Why <see cref="Point"/> is null; null when it is not.</param>
/// <param name="Accounting">The numbers it came from, or null when the scheme has no accounting.</param>
public sealed record MultiprogramFactored(FactoredPoint? Point, string? Reason, ProgramCoreAccounting? Accounting)
{
    /// <summary>The reason written for a scheme that keeps no per-program core-time accounting.</summary>
    public const string NoAccountingReason =
        "this scheme keeps no per-program core-time or idle accounting (only the MultiProgramScheduler's partitioned schemes do); no numbers are invented";

    /// <summary>
    /// Decomposes <paramref name="accounting"/>; a missing input (no recorded run, T_s or T_1 not measured, no core
    /// time held) gives a result with a reason instead of numbers.
    /// </summary>
    /// <exception cref="ArgumentException">A number is negative or not finite, or idle exceeds the core-time held.</exception>
    public static MultiprogramFactored Compute(ProgramCoreAccounting accounting)
    {
        ArgumentNullException.ThrowIfNull(accounting);
        var problems = new List<string>();
        (string Name, double? Value)[] numbers =
        [
            ("IntervalSeconds", accounting.IntervalSeconds), ("CoreSecondsHeld", accounting.CoreSecondsHeld), ("IdleSeconds", accounting.IdleSeconds),
            ("MeanRunSeconds", accounting.MeanRunSeconds), ("SequentialSeconds", accounting.SequentialSeconds),
            ("OneWorkerSeconds", accounting.OneWorkerSeconds), ("ElisionSeconds", accounting.ElisionSeconds),
        ];
        foreach ((string name, double? value) in numbers)
        {
            problems.AddIf(value is double v && (!double.IsFinite(v) || v < 0), $"{name} must be finite and 0 or more; got {value}.");
        }

        problems.AddIf(accounting.IdleSeconds > accounting.CoreSecondsHeld, $"IdleSeconds ({accounting.IdleSeconds}) cannot exceed CoreSecondsHeld ({accounting.CoreSecondsHeld}).");

        if (problems.Count > 0)
        {
            throw new ArgumentException($"Invalid accounting for '{accounting.Program}': " + string.Join(" ", problems), nameof(accounting));
        }

        string? reason = accounting switch
        {
            { MeanRunSeconds: null or <= 0 } => "no run of this program was recorded in the multiprogram phase",
            { SequentialSeconds: null or <= 0 } => "T_s (the sequential baseline) was not measured",
            { OneWorkerSeconds: null or <= 0 } => "T_1 (the parallel program on one worker) was not measured",
            { IntervalSeconds: <= 0 } or { CoreSecondsHeld: <= 0 } => "the program held no core-time in the measured interval",
            _ => null,
        };
        if (reason is not null)
        {
            return new MultiprogramFactored(null, reason, accounting);
        }

        double tmp = accounting.MeanRunSeconds!.Value;
        double coresHeld = accounting.CoreSecondsHeld / accounting.IntervalSeconds;
        double idlePerRun = accounting.IdleSeconds / accounting.IntervalSeconds * tmp;
        FactoredPoint point = FactoredAnalysis.Point(coresHeld, accounting.SequentialSeconds!.Value, accounting.OneWorkerSeconds!.Value,
            tmp, idlePerRun, accounting.ElisionSeconds is > 0 ? accounting.ElisionSeconds : null);
        return new MultiprogramFactored(point, null, accounting);
    }
}
