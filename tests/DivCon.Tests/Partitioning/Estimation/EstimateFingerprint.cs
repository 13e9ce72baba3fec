using DivCon.Partitioning.Estimation;

namespace DivCon.Tests.Partitioning.Estimation;

/// <summary>
/// Seeded sample streams run through the estimator's per-tick path, reduced to sums over every tick and program of each
/// field it reports (estimate, probe, speedups, the tracker's choice): a fingerprint of every estimate the path
/// produced. <see cref="RecordedEstimatesTests"/> compares them with the sums recorded from an earlier implementation.
/// </summary>
internal static class EstimateFingerprint
{
    /// <summary>The names of the sums, in order.</summary>
    public static readonly string[] Fields =
    [
        "hasEstimate", "scalability", "speedupAtCurrent", "currentCores", "serialFraction", "inflationPerCore",
        "inflationSeparated", "relativeError (finite)", "relativeError infinite", "confidence", "observations",
        "allocations", "probes", "probe cores", "speedup at 2", "speedup at half", "choice scalability", "choice changes",
        "observed ticks", "probed ticks", "table speedups",
    ];

    /// <summary>The scenarios by name.</summary>
    public static readonly string[] Scenarios = ["64 cores, 8 programs", "2 cores, 5 programs rotating", "16 cores, short half-life"];

    /// <summary>Runs scenario <paramref name="index"/> and returns its sums (<see cref="Fields"/>).</summary>
    public static double[] Run(int index) => index switch
    {
        // Eight programs on 64 cores; allocations change every 150 ticks among 4, 8 and 16 cores, probes honoured,
        // a program unserved every 11th tick and one without demand every 23rd.
        0 => Run(64, 8, 1200, new ScalabilityEstimatorOptions(), (p, t) => (4 << ((p + (t / 150)) % 3), t % 11 == p, t % 23 == p)),

        // The cyclic test on 2 cores: five programs, two of them served one core each per tick in turn, probes honoured.
        1 => Run(2, 5, 1500, new ScalabilityEstimatorOptions(), (p, t) => (((t + p) % 5) < 2 ? 1 : 0, false, false)),

        // 16 cores, a half-life of 8 ticks (so the weights are rescaled several times) and more probing.
        _ => Run(16, 3, 3000, new ScalabilityEstimatorOptions { HalfLifeTicks = 8, ProbeFraction = 0.1 }, (p, t) => (2 + (2 * p), false, t % 37 == 0)),
    };

    private static double[] Run(int cores, int programs, int ticks, ScalabilityEstimatorOptions options, Func<int, int, (int Cores, bool Unserved, bool NoDemand)> plan)
    {
        const double Tick = 0.1;
        var tracker = new ScalabilityTracker(cores, options);
        OnlineScalabilityEstimator estimator = tracker.Estimator;
        var synthetic = new SyntheticProgram[programs];
        var counters = new ProgramCounters[programs];
        for (int p = 0; p < programs; p++)
        {
            synthetic[p] = new SyntheticProgram(
                0.02 + (0.04 * p), 0.003 * (p % 3), seed: 100 + p, tasks: 50 + (40 * p), speedNoise: 0.1, servedLoss: 0.05, stealIdle: 0.02);
        }

        var sums = new double[Fields.Length];
        for (int t = 0; t < ticks; t++)
        {
            for (int p = 0; p < programs; p++)
            {
                (int given, bool unserved, bool noDemand) = plan(p, t);
                int served = estimator.TryGetProbe(p, out ScalabilityProbe probe) ? probe.Cores : given;
                ScalabilitySample s = unserved ? new ScalabilitySample(served, Tick, 0, 0, 0)
                    : noDemand ? new ScalabilitySample(served, Tick, served * Tick, served * Tick, 0)
                    : synthetic[p].Tick(served, Tick);
                counters[p] = new ProgramCounters(counters[p].CoreSeconds + s.CoreSeconds, counters[p].IdleSeconds + s.IdleSeconds, counters[p].TasksExecuted + s.TasksExecuted);
                tracker.Observe(p, s.AssignedCores, s.ElapsedSeconds, counters[p]);

                ScalabilityEstimate e = estimator.GetEstimate(p);
                int i = 0;
                sums[i++] += e.HasEstimate ? 1 : 0;
                sums[i++] += e.Scalability;
                sums[i++] += e.SpeedupAtCurrent;
                sums[i++] += e.CurrentCores;
                sums[i++] += e.SerialFraction;
                sums[i++] += e.InflationPerCore;
                sums[i++] += e.InflationSeparated ? 1 : 0;
                sums[i++] += double.IsFinite(e.RelativeError) ? e.RelativeError : 0;
                sums[i++] += double.IsFinite(e.RelativeError) ? 0 : 1;
                sums[i++] += e.Confidence;
                sums[i++] += e.Observations;
                sums[i++] += e.Allocations;
                bool probing = estimator.TryGetProbe(p, out ScalabilityProbe next);
                sums[i++] += probing ? 1 : 0;
                sums[i++] += probing ? next.Cores : 0;
                sums[i++] += estimator.SpeedupAt(p, 2);
                sums[i++] += estimator.SpeedupAt(p, Math.Max(1, cores / 2));
                sums[i++] += tracker.Choose(p, null, null).Scalability;
            }
        }

        for (int p = 0; p < programs; p++)
        {
            sums[17] += tracker.ChoiceChanges(p);
            sums[18] += estimator.ObservedTicks(p);
            sums[19] += estimator.ProbedTicks(p);
            if (estimator.CreateTable(p) is { } table)
            {
                for (int c = 1; c <= cores; c++)
                {
                    sums[20] += table.SpeedupAt(c);
                }
            }
        }

        return sums;
    }
}
