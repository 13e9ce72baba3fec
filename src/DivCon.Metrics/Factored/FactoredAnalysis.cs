using DivCon.Metrics.Statistics;
using DivCon.Metrics.Throttling;

namespace DivCon.Metrics.Factored;

/// <summary>
/// Pure functions of the factored speedup method (seed 001 §2; seed 000 §2.7–2.8). Every curve is a ratio of
/// means, E[T_s]/E[T_P], never a mean of per-run ratios E[T_s/T_P] (seed 000 §2.7: the time is what one minimises;
/// a speedup is only a way of looking at it). F_P = P·T_P − I_P − T_1 is the leftover of the identity
/// P·T_P = T_1 + I_P + F_P, so the identity holds by construction and proves nothing: F_P carries every error of the other
/// three. The uncertainty of every quantity comes from a percentile bootstrap over the measurement's rounds.
/// </summary>
public static class FactoredAnalysis
{
    /// <summary>
    /// The decomposition at <paramref name="p"/> workers from mean times in seconds. <paramref name="p"/> may be
    /// fractional (the mean cores a program held in a multiprogram run).
    /// </summary>
    /// <remarks>
    /// <b>Throttling is not inflation.</b> Core-time the kernel took away under a cgroup CPU quota
    /// (<paramref name="throttledSeconds"/>, Θ_P, from <c>cpu.stat</c>) was given to the run's P·T_P but neither spent
    /// idle nor working, and a stopped worker inside a task counts as busy; left in, it would pass for work inflation.
    /// It is its own term, subtracted from the leftover: W_P = P·T_P − I_P − Θ_P, and the work of one worker is taken
    /// without its own throttling (<paramref name="t1ThrottledSeconds"/>, Θ_1), so
    /// P·T_P = (T_1 − Θ_1) + I_P + Θ_P + F_P. Both are 0 where nothing was throttled (or nothing could be read).
    /// </remarks>
    /// <exception cref="ArgumentOutOfRangeException">A time is not finite and positive (idle and throttled: finite and ≥ 0), or p is not positive.</exception>
    public static FactoredPoint Point(double p, double ts, double t1, double tp, double ip, double? telision, double throttledSeconds = 0, double t1ThrottledSeconds = 0)
    {
        RequirePositive(p, nameof(p));
        RequirePositive(ts, nameof(ts));
        RequirePositive(t1, nameof(t1));
        RequirePositive(tp, nameof(tp));
        RequireNonNegative(ip, nameof(ip));
        if (telision is double e)
        {
            RequirePositive(e, nameof(telision));
        }

        RequireNonNegative(throttledSeconds, nameof(throttledSeconds));
        RequireNonNegative(t1ThrottledSeconds, nameof(t1ThrottledSeconds));
        double coreTime = p * tp;                 // P·T_P: all the time the P cores were given
        double wp = coreTime - ip - throttledSeconds; // Fact 2.1: P·T_P = W_P + I_P (+ Θ_P, the quota's share)
        double fp = wp - (t1 - t1ThrottledSeconds);   // Fact 2.2: F_P = W_P − T_1 (T_1 without its own throttling)
        var speedups = new FactoredSpeedups(
            Linear: p,
            Maximal: p * ts / t1,
            IdleSpecific: p * ts / (t1 + ip),
            // P·T_s/(T_1 + F_P) computed as P·T_s/(P·T_P − I_P) (seed 001 §2.3); ≤ 0 work would be a measurement
            // error (idle longer than the cores' time): reported as NaN rather than a negative or infinite speedup.
            InflationSpecific: wp > 0 ? p * ts / wp : double.NaN,
            Actual: ts / tp,
            Elision: telision is double te ? p * ts / te : null);
        return new FactoredPoint(p, tp, ip, wp, fp, speedups);
    }

    /// <summary>
    /// Means of the samples, then one <see cref="Point"/> per worker count (ascending), with the mean steal statistics
    /// of its runs when every run has them, and (<see cref="FactoredPoint.Ci99"/>) percentile bootstrap intervals over
    /// the rounds when every kind of run has the same number of runs (a round measured one of each, side by side);
    /// <paramref name="resamples"/> and <paramref name="seed"/> as <see cref="Bootstrap.Percentile"/>.
    /// </summary>
    /// <exception cref="ArgumentException">No T_s run, no P = 1 runs, an empty run list, or a time that is not finite and positive.</exception>
    public static FactoredProgramResult Analyze(string program, FactoredSamples samples, int resamples = Bootstrap.DefaultResamples, int seed = Bootstrap.DefaultSeed)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(program);
        ArgumentNullException.ThrowIfNull(samples);
        if (samples.Sequential.Count == 0)
        {
            throw new ArgumentException("At least one T_s run is needed.", nameof(samples));
        }

        if (!samples.Parallel.TryGetValue(1, out IReadOnlyList<ParallelRunSample>? oneWorker) || oneWorker.Count == 0)
        {
            throw new ArgumentException("Runs at P = 1 are needed: T_1 is their mean time.", nameof(samples));
        }

        double ts = Mean(samples.Sequential);
        double t1 = Mean(oneWorker.Select(r => r.Seconds).ToArray());
        double t1Throttled = ThrottlingSummary.Of(oneWorker.Select(r => r.Throttling).ToArray())?.MeanThrottledSeconds ?? 0;
        double? telision = samples.Elision.Count > 0 ? Mean(samples.Elision) : null;
        var points = new List<FactoredPoint>();
        foreach (var (p, runs) in samples.Parallel.OrderBy(kv => kv.Key))
        {
            if (p < 1 || runs.Count == 0)
            {
                throw new ArgumentException($"Worker counts must be at least 1 with at least one run; got P = {p} with {runs.Count} runs.", nameof(samples));
            }

            double tp = Mean(runs.Select(r => r.Seconds).ToArray());
            double ip = Mean(runs.Select(r => r.IdleSeconds).ToArray());
            RunStealStatistics[] steals = runs.Where(r => r.Steals is not null).Select(r => r.Steals!).ToArray();
            RunStealStatistics? meanSteals = steals.Length < runs.Count ? null : new RunStealStatistics(
                steals.Average(r => r.Steals), steals.Average(r => r.LocalSteals), steals.Average(r => r.RemoteSteals),
                steals.Average(r => r.SchedulingOverheadSeconds), steals.Average(r => r.WaitingSeconds));
            ThrottlingSummary? throttling = ThrottlingSummary.Of(runs.Select(r => r.Throttling).ToArray());
            points.Add(Point(p, ts, t1, tp, ip, telision, throttling?.MeanThrottledSeconds ?? 0, t1Throttled) with
            {
                Steals = meanSteals,
                Throttling = throttling,
                Ci99 = Intervals(p, samples, resamples, seed),
            });
        }

        return new FactoredProgramResult(program, ts, t1, telision, points, samples);
    }

    /// <summary>
    /// The bootstrap intervals of the point at <paramref name="p"/> workers over the rounds, or null when the kinds of
    /// run differ in number (no rounds to resample) or there is only one.
    /// </summary>
    private static FactoredIntervals? Intervals(int p, FactoredSamples samples, int resamples, int seed)
    {
        int rounds = samples.Sequential.Count;
        bool elision = samples.Elision.Count > 0;
        if (rounds < 2 || (elision && samples.Elision.Count != rounds) || samples.Parallel.Values.Any(r => r.Count != rounds))
        {
            return null;
        }

        IReadOnlyList<ParallelRunSample> one = samples.Parallel[1], atP = samples.Parallel[p];
        double[] Statistics(int[] picks)
        {
            double ts = picks.Average(k => samples.Sequential[k]);
            double t1 = picks.Average(k => one[k].Seconds);
            double tp = picks.Average(k => atP[k].Seconds);
            double ip = picks.Average(k => atP[k].IdleSeconds);
            double te = elision ? picks.Average(k => samples.Elision[k]) : double.NaN;
            // The quota's share of the picked runs, as the point estimate takes it (0 where nothing was read).
            double throttled = ThrottlingSummary.Of(picks.Select(k => atP[k].Throttling).ToArray())?.MeanThrottledSeconds ?? 0;
            double t1Throttled = ThrottlingSummary.Of(picks.Select(k => one[k].Throttling).ToArray())?.MeanThrottledSeconds ?? 0;
            FactoredPoint x = Point(p, ts, t1, tp, ip, elision ? te : null, throttled, t1Throttled);
            FactoredSpeedups s = x.Speedups;
            return [x.Tp, x.Ip, x.Fp, s.Maximal, s.IdleSpecific, s.InflationSpecific, s.Actual, s.Elision ?? double.NaN];
        }

        ConfidenceInterval?[] ci = Bootstrap.Percentile(rounds, 8, Statistics, Descriptive.Confidence, resamples, seed);
        return new FactoredIntervals(rounds, ci[0], ci[1], ci[2], ci[3], ci[4], ci[5], ci[6], ci[7]);
    }

    /// <summary>The arithmetic mean; every value must be finite and ≥ 0.</summary>
    public static double Mean(IReadOnlyList<double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        if (values.Count == 0)
        {
            throw new ArgumentException("The mean of no values is undefined.", nameof(values));
        }

        double sum = 0;
        foreach (double v in values)
        {
            if (!double.IsFinite(v) || v < 0)
            {
                throw new ArgumentException($"Times must be finite and 0 or more; got {v}.", nameof(values));
            }

            sum += v;
        }

        return sum / values.Count;
    }

    private static void RequireNonNegative(double value, string name)
    {
        if (!double.IsFinite(value) || value < 0)
        {
            throw new ArgumentOutOfRangeException(name, value, "Must be finite and 0 or more.");
        }
    }

    private static void RequirePositive(double value, string name)
    {
        if (!double.IsFinite(value) || value <= 0)
        {
            throw new ArgumentOutOfRangeException(name, value, "Must be finite and positive.");
        }
    }
}
