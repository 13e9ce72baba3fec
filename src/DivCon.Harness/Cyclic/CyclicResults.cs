using System.Globalization;
using DivCon.Harness.Factored;
using DivCon.Metrics;
using DivCon.Metrics.Factored;
using DivCon.Metrics.Results;
using DivCon.Metrics.Schemes;
using DivCon.Metrics.Statistics;

namespace DivCon.Harness.Cyclic;

/// <summary>
/// Builds a <see cref="CyclicResult"/> from raw invocations: a pure function, so that a result measured now, the merge
/// of several child processes' invocations and <c>divcon analyze</c> on a saved file all compute the same numbers.
/// </summary>
public static class CyclicResults
{
    /// <summary>
    /// Analyzes <paramref name="invocations"/> (all of one configuration, numbered 1 … n in order) with
    /// <paramref name="options"/>; <paramref name="describe"/> gives each scheme's description.
    /// </summary>
    /// <exception cref="ArgumentException">No invocation, or one whose programs or schemes do not match the configuration.</exception>
    public static CyclicResult Build(
        CyclicPlanRecord configuration,
        IReadOnlyList<CyclicInvocation> invocations,
        Func<string, string> describe,
        AnalysisOptions options,
        MachineInfo machine,
        DateTimeOffset startedUtc,
        double elapsedSeconds,
        InvocationSizing? sizing = null)
    {
        ArgumentNullException.ThrowIfNull(configuration);
        ArgumentNullException.ThrowIfNull(invocations);
        ArgumentNullException.ThrowIfNull(describe);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(machine);
        Check(configuration, invocations);
        IReadOnlyList<string> programs = configuration.Programs;
        int n = programs.Count;
        var repetitions = invocations
            .Select(inv => new RepetitionRuns(
                inv.Programs.Select(p => p.SpSeconds).ToArray(),
                inv.Schemes.ToDictionary(s => s.Scheme, s => s.Programs)))
            .ToArray();
        CyclicInvocation last = invocations[^1];
        InvocationScheme Last(string scheme) => last.Schemes.First(s => s.Scheme == scheme);
        CyclicAnalysisResult analysis = CyclicAnalysis.Analyze(
            programs,
            configuration.Schemes.Select(s => (s, describe(s))).ToArray(),
            repetitions,
            (scheme, i) => CyclicExperiment.NoRunWarning(Last(scheme).Schedulers, programs[i], i, Last(scheme).LimitSeconds),
            options);

        var byName = Enumerable.Range(0, n).ToDictionary(i => programs[i], i => Isolated(invocations, i));
        SchemeResult[] schemes = analysis.Schemes
            .Select(x => x with { Schedulers = Last(x.Scheme).Schedulers })
            .Select(x => Accounting(invocations, x.Scheme) is { } a
                ? CyclicFactored.Attach(x, a.WindowSeconds, a.Stats, name => byName.GetValueOrDefault(name))
                : x)
            .Select(x => x with { Programs = x.Programs.Select(p => p with { Factored = p.Factored ?? new MultiprogramFactored(null, MultiprogramFactored.NoAccountingReason, null) }).ToArray() })
            .Select(x => WithFactoredIntervals(x, invocations, options))
            .ToArray();
        ProgramBaseline[] baselines = Enumerable.Range(0, n).Select(i => Baseline(invocations, i, programs[i])).ToArray();
        return new CyclicResult(configuration with { Repeat = invocations.Count }, baselines, schemes, analysis.Comparisons, invocations, analysis.Metrics,
            options, sizing, Throttling(invocations))
        {
            StartedUtc = startedUtc,
            ElapsedSeconds = elapsedSeconds,
            Machine = machine,
        };
    }

    /// <summary>
    /// Recomputes every derived number from the invocations of <paramref name="results"/> (of one configuration),
    /// pooled in the order given and numbered 1 … n, with <paramref name="options"/> (default: the first file's own).
    /// </summary>
    public static CyclicResult Reanalyze(IReadOnlyList<CyclicResult> results, AnalysisOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(results);
        CyclicResult first = results[0];
        CyclicInvocation[] invocations = [.. results.SelectMany(r => r.Invocations).Select((inv, k) => inv with { Invocation = k + 1 })];
        var descriptions = results.SelectMany(r => r.Schemes).DistinctBy(s => s.Scheme).ToDictionary(s => s.Scheme, s => s.Description);
        return Build(first.Configuration with { Repeat = invocations.Length }, invocations, s => descriptions.GetValueOrDefault(s) ?? SchemeCatalog.Find(s)?.Description ?? s,
            options ?? first.Analysis, first.Machine, results.Min(r => r.StartedUtc), results.Sum(r => r.ElapsedSeconds), results.Count == 1 ? first.Sizing : null);
    }

    private static void Check(CyclicPlanRecord configuration, IReadOnlyList<CyclicInvocation> invocations)
    {
        if (invocations.Count == 0)
        {
            throw new ArgumentException("At least one invocation is needed.", nameof(invocations));
        }

        for (int k = 0; k < invocations.Count; k++)
        {
            CyclicInvocation inv = invocations[k];
            if (inv.Invocation != k + 1)
            {
                throw new ArgumentException($"Invocations must be numbered 1 … n in order; position {k + 1} holds invocation {inv.Invocation}.", nameof(invocations));
            }

            if (!inv.Programs.Select(p => p.Program).SequenceEqual(configuration.Programs))
            {
                throw new ArgumentException($"Invocation {inv.Invocation} ran programs {string.Join(",", inv.Programs.Select(p => p.Program))}, not {string.Join(",", configuration.Programs)}.", nameof(invocations));
            }

            if (!inv.Schemes.Select(s => s.Scheme).SequenceEqual(configuration.Schemes))
            {
                throw new ArgumentException($"Invocation {inv.Invocation} ran schemes {string.Join(",", inv.Schemes.Select(s => s.Scheme))}, not {string.Join(",", configuration.Schemes)}.", nameof(invocations));
            }

            if (inv.Programs.Any(p => p.SpSeconds.Count == 0) || inv.Schemes.Any(s => s.Programs.Count != configuration.Programs.Count))
            {
                throw new ArgumentException($"Invocation {inv.Invocation} lacks C^SP runs or a program's multiprogram runs.", nameof(invocations));
            }
        }
    }

    private static ProgramBaseline Baseline(IReadOnlyList<CyclicInvocation> invocations, int i, string program)
    {
        InvocationProgram[] runs = invocations.Select(inv => inv.Programs[i]).ToArray();
        Estimate csp = runs.Length >= 2 ? Descriptive.Summarize(runs.Select(p => p.SpSeconds.Average()).ToArray()) : Descriptive.Summarize(runs[0].SpSeconds.ToArray());
        var online = invocations[0].Schemes
            .Select(s => (s.Scheme, Estimates: invocations.Select(inv => inv.Schemes.First(x => x.Scheme == s.Scheme).Schedulers)
                .Select(x => i < x.Count ? x[i].OnlineScalability : null).OfType<double>().ToArray()))
            .Where(x => x.Estimates.Length > 0)
            .ToDictionary(x => x.Scheme, x => x.Estimates.Average());

        return new ProgramBaseline(program, csp, Mean(runs.SelectMany(p => p.SequentialSeconds).ToArray()),
            Mean(runs.Select(p => p.Scalability).OfType<double>().ToArray()), runs.Count(p => !p.SteadyState), online.Count > 0 ? online : null);
    }

    /// <summary>T_s and T_1 of program <paramref name="i"/>: means of every invocation's runs; null when neither was measured.</summary>
    private static IsolatedTimes? Isolated(IReadOnlyList<CyclicInvocation> invocations, int i)
    {
        double? ts = Mean(invocations.SelectMany(inv => inv.Programs[i].SequentialSeconds).ToArray());
        double? t1 = Mean(invocations.SelectMany(inv => inv.Programs[i].OneWorkerSeconds).ToArray());
        return ts is null && t1 is null ? null : new IsolatedTimes(ts, t1, null);
    }

    private static double? Mean(double[] values) => values.Length > 0 ? values.Average() : null;

    /// <summary>
    /// One scheme's per-program core-seconds and idle seconds summed over the invocations' statistics windows, and the
    /// windows' total, so P = Σ core / Σ window is the mean cores held over every invocation (the runs in C^MP). Null when
    /// no program has core-time accounting; a program's core (or idle) seconds are null when some invocation lacked them.
    /// </summary>
    private static (double WindowSeconds, IReadOnlyList<SchedulerStats> Stats)? Accounting(IReadOnlyList<CyclicInvocation> invocations, string scheme)
    {
        InvocationScheme[] phases = invocations.Select(inv => inv.Schemes.First(s => s.Scheme == scheme)).ToArray();
        double window = phases.Sum(p => p.WindowSeconds);
        IReadOnlyList<SchedulerStats> last = phases[^1].Schedulers;
        if (window <= 0 || phases.Any(p => p.Schedulers.Count != last.Count) || !phases.All(p => p.Schedulers.Any(x => x.CoreSeconds is not null)))
        {
            return null;
        }

        bool coreMissing = phases.Any(p => p.Schedulers.Any(x => x.CoreSeconds is null));
        var stats = last.Select((s, i) => s with
        {
            CoreSeconds = coreMissing ? null : phases.Sum(p => p.Schedulers[i].CoreSeconds!.Value),
            IdleSeconds = coreMissing || phases.Any(p => p.Schedulers[i].IdleSeconds is null) ? null : phases.Sum(p => p.Schedulers[i].IdleSeconds!.Value),
        }).ToArray();
        return (window, stats);
    }

    /// <summary>
    /// Bootstrap intervals over the invocations for each program's multiprogram decomposition (two or more invocations,
    /// each with the program's core and idle seconds, a recorded run, and its T_s and T_1 runs): a resample of
    /// invocations sums their windows, core and idle seconds, averages their mean C^MP and pools their T_s and T_1 runs,
    /// and decomposes again with <see cref="MultiprogramFactored.Compute"/>, exactly as the point estimate does.
    /// </summary>
    private static SchemeResult WithFactoredIntervals(SchemeResult scheme, IReadOnlyList<CyclicInvocation> invocations, AnalysisOptions options)
    {
        if (invocations.Count < 2)
        {
            return scheme;
        }

        InvocationScheme[] phases = invocations.Select(inv => inv.Schemes.First(s => s.Scheme == scheme.Scheme)).ToArray();
        var programs = scheme.Programs.ToArray();
        for (int i = 0; i < programs.Length; i++)
        {
            int program = i;
            if (programs[i].Factored is not { Point: { } point } factored
                || phases.Any(p => program >= p.Schedulers.Count || p.Schedulers[program].CoreSeconds is null || p.Schedulers[program].IdleSeconds is null || p.Programs[program].Seconds.Count == 0)
                || invocations.Any(inv => inv.Programs[program].SequentialSeconds.Count == 0 || inv.Programs[program].OneWorkerSeconds.Count == 0))
            {
                continue;
            }

            double[] Statistics(int[] picks)
            {
                double window = 0, core = 0, idle = 0, cmp = 0;
                var ts = new List<double>();
                var t1 = new List<double>();
                foreach (int k in picks)
                {
                    SchedulerStats stats = phases[k].Schedulers[program];
                    window += phases[k].WindowSeconds;
                    core += stats.CoreSeconds!.Value;
                    idle += Math.Min(stats.IdleSeconds!.Value, stats.CoreSeconds.Value);
                    cmp += phases[k].Programs[program].Seconds.Average();
                    ts.AddRange(invocations[k].Programs[program].SequentialSeconds);
                    t1.AddRange(invocations[k].Programs[program].OneWorkerSeconds);
                }

                FactoredPoint? x = MultiprogramFactored.Compute(new ProgramCoreAccounting(programs[program].Program, window, core, idle, cmp / picks.Length, ts.Average(), t1.Average(), null)).Point;
                return x is null
                    ? Enumerable.Repeat(double.NaN, 8).ToArray()
                    : [x.Tp, x.Ip, x.Fp, x.Speedups.Maximal, x.Speedups.IdleSpecific, x.Speedups.InflationSpecific, x.Speedups.Actual, double.NaN];
            }

            ConfidenceInterval?[] ci = Bootstrap.Percentile(invocations.Count, 8, Statistics, options.Confidence, options.BootstrapResamples, options.BootstrapSeed);
            programs[i] = programs[i] with
            {
                Factored = factored with { Point = point with { Ci99 = new FactoredIntervals(invocations.Count, ci[0], ci[1], ci[2], ci[3], ci[4], ci[5], ci[6], ci[7]) } },
            };
        }

        return scheme with { Programs = programs };
    }

    /// <summary>Every invocation's throttling samples together (null when none could be read in any).</summary>
    private static CyclicThrottling? Throttling(IReadOnlyList<CyclicInvocation> invocations)
    {
        CyclicThrottling[] read = invocations.Select(i => i.Throttling).OfType<CyclicThrottling>().ToArray();
        return read.Length == 0 ? null : new CyclicThrottling(read.SelectMany(t => t.Alone).ToArray(), read.SelectMany(t => t.Phases).ToArray());
    }

    /// <summary>"1 invocation", "n invocations": how reports count them.</summary>
    public static string CountText(int n) => string.Create(CultureInfo.InvariantCulture, $"{n} invocation{(n == 1 ? string.Empty : "s")}");
}
