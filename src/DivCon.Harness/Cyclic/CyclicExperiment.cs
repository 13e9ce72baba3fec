using System.Globalization;
using DivCon.Harness.Factored;
using DivCon.Harness.Progress;
using DivCon.Metrics;
using DivCon.Metrics.Factored;
using DivCon.Metrics.Results;
using DivCon.Metrics.Throttling;
using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;
using DivCon.Scheduling;

namespace DivCon.Harness.Cyclic;

/// <summary>
/// Runs a <see cref="CyclicPlan"/>: for each repetition, C^SP of every program (warm-up runs, then
/// <see cref="CyclicSettings.SpRuns"/> isolated runs under the SP scheme, then a correctness check), the program's
/// scalability if a scheme needs it (first repetition only), then each scheme's multiprogram phase in a seeded random
/// order; finally <see cref="CyclicAnalysis"/>. A full garbage collection precedes each program's C^SP runs and each
/// phase. A failing program abandons the whole test with
/// <see cref="ProgramRunException"/> (its message names the program, the scheme and the repetition): no partial result.
/// Run it on <see cref="HarnessThread"/> for real measurements. The CPU budget is read once (or taken from the
/// settings) and given to every scheduler the test builds and to the result; the cgroup's throttling counters are read
/// around every timed run alone and every phase (<see cref="CyclicResult.Throttling"/>).
/// </summary>
public sealed class CyclicExperiment
{
    private readonly TimeProvider _clock;
    private readonly IRunProgress _progress;

    /// <summary>Creates a runner on <paramref name="clock"/> that reports to <paramref name="progress"/>.</summary>
    public CyclicExperiment(TimeProvider clock, IRunProgress? progress)
    {
        ArgumentNullException.ThrowIfNull(clock);
        _clock = clock;
        _progress = progress ?? LineProgress.None;
    }

    /// <summary>Creates a runner on <paramref name="clock"/>; <paramref name="log"/> receives every progress line.</summary>
    public CyclicExperiment(TimeProvider clock, Action<string>? log = null)
        : this(clock, log is null ? null : new LineProgress(log))
    {
    }

    /// <summary>
    /// Reads the throttling counters for a budget (default <see cref="CpuBudget.ReadThrottling()"/>); tests replace it
    /// with scripted readings.
    /// </summary>
    public Func<CpuBudget, CpuThrottling?> ReadThrottling { get; init; } = static budget => budget.ReadThrottling();

    /// <summary>Runs the plan and analyzes it.</summary>
    public async Task<CyclicResult> RunAsync(CyclicPlan plan, CancellationToken cancellationToken = default)
    {
        Validate(plan);
        CyclicSettings s = plan.Settings;
        CpuBudget budget = s.Budget ?? CpuBudget.Detect();
        plan = plan with { Settings = s = s with { Budget = budget } };
        var throttling = new ThrottlingRecorder(() => ReadThrottling(budget));
        DateTimeOffset startedUtc = _clock.GetUtcNow();
        long started = _clock.GetTimestamp();
        IReadOnlyList<IWorkloadProgram> programs = plan.Programs;
        int n = programs.Count;
        bool needScalability = plan.Schemes.Any(x => x.RequiresScalability);
        var scalability = new double?[n];
        var sequentialSeconds = new double?[n];
        var repetitions = new List<RepetitionRuns>();
        var limits = new Dictionary<string, double>();
        var schedulers = new Dictionary<string, IReadOnlyList<SchedulerStats>>();
        var accounting = new Dictionary<string, AccountingTotals>();

        for (int r = 0; r < s.Repeat; r++)
        {
            var sp = new IReadOnlyList<double>[n];
            for (int i = 0; i < n; i++)
            {
                sp[i] = await MeasureAloneAsync(plan, i, r, started, throttling, cancellationToken);
            }

            if (needScalability && r == 0)
            {
                _progress.Phase("T_seq (scalability)", n);
                for (int i = 0; i < n; i++)
                {
                    var window = throttling.Open();
                    long t0 = _clock.GetTimestamp();
                    Guard(programs[i].Name, "its sequential baseline", r, programs[i].RunSequential);
                    sequentialSeconds[i] = Seconds(_clock.GetTimestamp() - t0);
                    throttling.Alone(programs[i].Name, "tseq", r + 1, [window.Close()]);
                    scalability[i] = sequentialSeconds[i] / sp[i].Average();
                    Log(started, $"seq  {programs[i].Name,-16} T_seq {sequentialSeconds[i]:0.000} s, scalability {scalability[i]:0.00}");
                }
            }

            var phases = new Dictionary<string, PhaseResult>();
            foreach (SchemeDescriptor scheme in Order(plan.Schemes, s, r))
            {
                cancellationToken.ThrowIfCancellationRequested();
                CollectGarbage();
                var context = new SchemeContext(
                    programs.Select((p, i) => new SchemeProgramInfo(p.Name, scalability[i])).ToArray(), s.Processors, budget);
                // Statistics window (issue 7): from just before the arrangement registers the programs (a pool's
                // per-program counters start at registration) to the first stopped run, the moment a pool freezes its
                // statistics (MultiProgramPool.OnRunStopping), or to the snapshot if no run was stopped.
                long windowStart = _clock.GetTimestamp();
                var firstStop = new long[1];
                using ISchedulerArrangement arrangement = CreateArrangement(scheme, context);
                var phasePrograms = programs
                    .Select((p, i) => new PhaseProgram(p.Name, ct => RunInPhaseAsync(arrangement, i, p, () => MarkStop(firstStop), ct)))
                    .ToArray();
                string label = $"rep {r + 1}/{s.Repeat} {scheme.Name}";
                _progress.Phase(label, s.Duration.TotalSeconds);
                Log(started, $"{label}: {s.Duration.TotalSeconds:0.#} s with {string.Join(", ", programs.Select(p => p.Name))}");
                PhaseResult phase;
                var phaseWindow = throttling.Open();
                try
                {
                    phase = await CyclicProtocol.RunMultiprogramAsync(
                        phasePrograms, s.Duration, _clock, s.StopGrace,
                        p => _progress.Advance(p.ElapsedSeconds, Stamp(started,
                            $"{label}: {p.ElapsedSeconds,5:0.0}/{p.LimitSeconds:0.#} s, runs: {string.Join(", ", p.Programs.Select((name, i) => $"{name} {p.RecordedRuns[i]}"))}")),
                        cancellationToken);
                }
                catch (ProgramRunException e)
                {
                    throw new ProgramRunException(e.Program,
                        string.Create(CultureInfo.InvariantCulture, $"{e.Message} (scheme '{scheme.Name}', repetition {r + 1})"), e.InnerException);
                }

                throttling.Phase(scheme.Name, r + 1, phaseWindow.Close());
                long snapshotAt = _clock.GetTimestamp();
                schedulers[scheme.Name] = arrangement.Snapshot();
                long windowEnd = Volatile.Read(ref firstStop[0]) is long stop and not 0 ? stop : snapshotAt;
                AccountingTotals.Add(accounting, scheme.Name, schedulers[scheme.Name], Seconds(windowEnd - windowStart));
                phases[scheme.Name] = phase;
            }

            repetitions.Add(new RepetitionRuns(sp, phases.ToDictionary(kv => kv.Key, kv => kv.Value.ProgramRuns())));
            limits = phases.ToDictionary(kv => kv.Key, kv => kv.Value.LimitSeconds);
        }

        IsolatedTimes?[] isolated = accounting.Values.Any(a => a.HasAccounting)
            ? await MeasureIsolatedTimesAsync(plan, sequentialSeconds, started, throttling, cancellationToken)
            : new IsolatedTimes?[n];
        var (analyzed, comparisons) = CyclicAnalysis.Analyze(
            programs.Select(p => p.Name).ToArray(),
            plan.Schemes.Select(x => (x.Name, x.Description)).ToArray(),
            repetitions,
            (scheme, i) => NoRunWarning(schedulers.GetValueOrDefault(scheme), programs[i].Name, i, limits[scheme]));
        var byName = Enumerable.Range(0, n).ToDictionary(i => programs[i].Name, i => isolated[i]);
        IReadOnlyList<SchemeResult> schemeResults = analyzed
            .Select(x => x with { Schedulers = schedulers.GetValueOrDefault(x.Scheme) ?? [] })
            .Select(x => accounting.TryGetValue(x.Scheme, out AccountingTotals? a) && a.WindowSeconds > 0
                ? CyclicFactored.Attach(x, a.WindowSeconds, a.Stats(), name => byName.GetValueOrDefault(name))
                : x)
            .Select(x => x with { Programs = x.Programs.Select(p => p with { Factored = p.Factored ?? MultiprogramFactored.Unavailable(MultiprogramFactored.NoAccountingReason) }).ToArray() })
            .ToArray();
        var baselines = Enumerable.Range(0, n)
            .Select(i => new ProgramBaseline(programs[i].Name, repetitions.SelectMany(rep => rep.CspSeconds[i]).ToArray(),
                sequentialSeconds[i], scalability[i]))
            .ToArray();
        return new CyclicResult(CyclicPlanRecord.From(plan), baselines, schemeResults, comparisons)
        {
            StartedUtc = startedUtc,
            ElapsedSeconds = Seconds(_clock.GetTimestamp() - started),
            Machine = MachineInfo.Capture(budget),
            Throttling = throttling.Result(),
        };
    }

    /// <summary>Number of timed runs of T_1, and of T_s when the scalability measurement made none.</summary>
    internal const int IsolatedRuns = 2;

    /// <summary>
    /// Isolated T_s and T_1 per program for the multiprogram decomposition, once per experiment and only when a scheme
    /// reported per-program accounting: T_1 is the mean of <see cref="IsolatedRuns"/> parallel runs on a 1-worker
    /// <see cref="WorkStealingTaskScheduler"/> (pinned to the first processor where possible); T_s is the scalability
    /// measurement's sequential run when one was made (partitioned schemes need it), else the mean of <see cref="IsolatedRuns"/> runs.
    /// Cost on the default job (medium, three programs): about 7 s of its ≈ 2 min.
    /// The programs' inputs were made when they were built, before any timing. The JIT is warm from the C^SP runs.
    /// </summary>
    private async Task<IsolatedTimes?[]> MeasureIsolatedTimesAsync(
        CyclicPlan plan, double?[] sequentialSeconds, long started, ThrottlingRecorder throttling, CancellationToken cancellationToken)
    {
        CyclicSettings s = plan.Settings;
        var result = new IsolatedTimes?[plan.Programs.Count];
        long t0 = _clock.GetTimestamp();
        _progress.Phase("T_s, T_1 (factored speedups)", plan.Programs.Count);
        for (int i = 0; i < plan.Programs.Count; i++)
        {
            IWorkloadProgram program = plan.Programs[i];
            var ts = new List<double>();
            if (sequentialSeconds[i] is double known)
            {
                ts.Add(known);
            }

            // Reuse the scalability measurement's run when there is one (it is T_s on the same input): saves a run.
            var tsThrottling = new List<ThrottlingSample?>();
            while (ts.Count < (sequentialSeconds[i] is null ? IsolatedRuns : 1))
            {
                CollectGarbage();
                var window = throttling.Open();
                long t = _clock.GetTimestamp();
                Guard(program.Name, "its sequential baseline (T_s)", 0, program.RunSequential);
                ts.Add(Seconds(_clock.GetTimestamp() - t));
                tsThrottling.Add(window.Close());
            }

            if (tsThrottling.Count > 0)
            {
                throttling.Alone(program.Name, "ts", 1, tsThrottling);
            }

            CollectGarbage();
            using var one = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions
            {
                Processors = [s.Processors[0]],
                BestEffortPinning = true,
                Budget = s.Budget,
                CompensateBlocking = false, // T_1: exactly one worker
            });
            var t1Throttling = new List<ThrottlingSample?>();
            var phaseProgram = throttling.Wrap(new PhaseProgram(program.Name, ct => program.RunAsync(one, ct)), t1Throttling);
            IReadOnlyList<double> t1;
            try
            {
                t1 = await CyclicProtocol.RunIsolatedAsync(phaseProgram, IsolatedRuns, _clock, s.RunTimeout, cancellationToken);
            }
            catch (ProgramRunException e)
            {
                throw new ProgramRunException(e.Program, $"{e.Message} (T_1 on one worker)", e.InnerException);
            }

            Guard(program.Name, "the check of its result on one worker", 0, program.Verify);
            throttling.Alone(program.Name, "t1", 1, t1Throttling);
            result[i] = new IsolatedTimes(ts.Average(), t1.Average(), null);
            Log(started, $"t1   {program.Name,-16} T_s {ts.Average():0.000} s, T_1 {t1.Average():0.000} s ({ts.Count} + {IsolatedRuns} runs)");
        }

        Log(started, $"isolated T_s / T_1 for the factored speedups took {Seconds(_clock.GetTimestamp() - t0):0.0} s");
        return result;
    }

    private void MarkStop(long[] firstStop) => Interlocked.CompareExchange(ref firstStop[0], Math.Max(1, _clock.GetTimestamp()), 0);

    private async Task<IReadOnlyList<double>> MeasureAloneAsync(
        CyclicPlan plan, int i, int r, long started, ThrottlingRecorder throttling, CancellationToken cancellationToken)
    {
        CyclicSettings s = plan.Settings;
        IWorkloadProgram program = plan.Programs[i];
        CollectGarbage();
        var context = new SchemeContext([new SchemeProgramInfo(program.Name, null)], s.Processors, s.Budget);
        using ISchedulerArrangement arrangement = CreateArrangement(plan.SpScheme, context);
        var phaseProgram = new PhaseProgram(program.Name, ct => program.RunAsync(arrangement.SchedulerFor(0), ct));
        var runThrottling = new List<ThrottlingSample?>();
        _progress.Phase($"rep {r + 1}/{s.Repeat} C^SP {program.Name}", s.WarmupRuns + s.SpRuns);
        Log(started, $"rep {r + 1}/{s.Repeat} sp {program.Name,-16} {s.WarmupRuns} warm-up + {s.SpRuns} runs alone on {plan.SpScheme.Name} ...");
        try
        {
            if (s.WarmupRuns > 0)
            {
                await CyclicProtocol.RunIsolatedAsync(phaseProgram, s.WarmupRuns, _clock, s.RunTimeout, cancellationToken);
            }

            IReadOnlyList<double> runs = await CyclicProtocol.RunIsolatedAsync(
                throttling.Wrap(phaseProgram, runThrottling), s.SpRuns, _clock, s.RunTimeout, cancellationToken);
            throttling.Alone(program.Name, "csp", r + 1, runThrottling);
            Guard(program.Name, "the check of its result", r, program.Verify);
            Log(started, $"rep {r + 1}/{s.Repeat} sp {program.Name,-16} {s.SpRuns} runs on {plan.SpScheme.Name}: mean {runs.Average():0.000} s (min {runs.Min():0.000}, max {runs.Max():0.000})");
            return runs;
        }
        catch (ProgramRunException e)
        {
            throw new ProgramRunException(e.Program,
                string.Create(CultureInfo.InvariantCulture, $"{e.Message} (single-program mode on '{plan.SpScheme.Name}', repetition {r + 1})"),
                e.InnerException);
        }
    }

    /// <summary>
    /// A multiprogram run that tells the arrangement when the phase stops it (see
    /// <see cref="ISchedulerArrangement.OnRunStopping"/>). Returns the program's own task, so the protocol sees exactly
    /// what it would without the notification.
    /// </summary>
    private static Task RunInPhaseAsync(ISchedulerArrangement arrangement, int i, IWorkloadProgram program, Action markStop, CancellationToken ct)
    {
        // markStop first: the window's end is taken just before the pool freezes its statistics.
        CancellationTokenRegistration stopping = ct.Register(() =>
        {
            markStop();
            arrangement.OnRunStopping(i);
        });
        Task run;
        try
        {
            run = program.RunAsync(arrangement.SchedulerFor(i), ct);
        }
        catch
        {
            stopping.Dispose();
            throw;
        }

        run.ContinueWith(static (_, s) => ((CancellationTokenRegistration)s!).Dispose(), stopping,
            CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        return run;
    }

    private static ISchedulerArrangement CreateArrangement(SchemeDescriptor scheme, SchemeContext context)
    {
        try
        {
            return scheme.Create(context);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            throw new SchemeSetupException(scheme.Name, $"Scheme '{scheme.Name}' could not build its schedulers: {e.Message}", e);
        }
    }

    /// <summary>
    /// A full collection before each measurement, so that no phase pays for the garbage the previous one left (the
    /// sample programs allocate their results; mergesort and quicksort are non-destructive).
    /// </summary>
    private static void CollectGarbage()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
    }

    private static void Guard(string program, string what, int r, Action action)
    {
        try
        {
            action();
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            throw new ProgramRunException(program,
                string.Create(CultureInfo.InvariantCulture, $"Program '{program}' failed {what} (repetition {r + 1}): {e.GetType().Name}: {e.Message}"), e);
        }
    }

    private static IEnumerable<SchemeDescriptor> Order(IReadOnlyList<SchemeDescriptor> schemes, CyclicSettings s, int r)
    {
        if (!s.ShuffleSchemes)
        {
            return schemes;
        }

        var order = schemes.ToArray();
        new Random(HashCode.Combine(s.Seed, r)).Shuffle(order);
        return order;
    }

    private static void Validate(CyclicPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        CyclicSettings s = plan.Settings;
        if (plan.Programs.Count == 0)
        {
            throw new ArgumentException("The workload needs at least one program.", nameof(plan));
        }

        if (plan.Schemes.Count == 0)
        {
            throw new ArgumentException("At least one scheme is needed.", nameof(plan));
        }

        var duplicate = plan.Programs.GroupBy(p => p.Name, StringComparer.OrdinalIgnoreCase).FirstOrDefault(g => g.Count() > 1);
        if (duplicate is not null)
        {
            throw new ArgumentException($"Program name '{duplicate.Key}' appears twice in the workload.", nameof(plan));
        }

        if (plan.SpScheme.RequiresScalability)
        {
            throw new ArgumentException($"Scheme '{plan.SpScheme.Name}' needs scalabilities, so it cannot measure C^SP.", nameof(plan));
        }

        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(s.Duration, TimeSpan.Zero, "Duration");
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(s.SpRuns, "SpRuns");
        ArgumentOutOfRangeException.ThrowIfNegative(s.WarmupRuns, "WarmupRuns");
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(s.Repeat, "Repeat");
        if (s.Processors.Count == 0)
        {
            throw new ArgumentException("At least one processor is needed.", nameof(plan));
        }
    }

    private void Log(long started, FormattableString message) => _progress.Line(Stamp(started, message));

    private string Stamp(long started, FormattableString message) =>
        string.Create(CultureInfo.InvariantCulture, $"[{Seconds(_clock.GetTimestamp() - started),7:0.0} s] ") + message.ToString(CultureInfo.InvariantCulture);

    /// <summary>
    /// Why a program recorded no run, when its partitioned pool starved it: a program that holds no core at the end and
    /// held less than 5 % of one core over the phase (it may have held one for a moment while the programs were being
    /// registered: the first one holds every worker until the next arrives). Null otherwise (the statistics are the
    /// last repetition's).
    /// </summary>
    internal static string? NoRunWarning(IReadOnlyList<SchedulerStats>? stats, string program, int index, double limitSeconds) =>
        stats is not null && index < stats.Count && stats[index] is { PoolId: not null, Workers: 0, CoreSeconds: double held } && held < 0.05 * limitSeconds
            ? string.Create(CultureInfo.InvariantCulture,
                $"Program '{program}' finished no run: the scheme's policy gave it almost no core ({held:0.000} core-seconds in a {limitSeconds:0.#} s phase, none at the end); with fewer cores than programs a partitioning policy may leave a program without any.")
            : null;

    private double Seconds(long ticks) => (double)ticks / _clock.TimestampFrequency;

    /// <summary>
    /// One scheme's per-program core-seconds and idle seconds summed over its repetitions' statistics windows, and the
    /// windows' total length, so P = Σ core / Σ window is the mean cores held over every repetition (the runs pooled in
    /// C^MP). A program whose scheduler reported no core-time in any repetition has none (null).
    /// </summary>
    private sealed class AccountingTotals(int programs)
    {
        private readonly double?[] _core = new double?[programs];
        private readonly double?[] _idle = new double?[programs];
        private readonly bool[] _idleMissing = new bool[programs];
        private readonly List<SchedulerStats> _last = [];
        private bool _missing;

        public double WindowSeconds { get; private set; }

        public bool HasAccounting => !_missing && _core.Any(c => c is not null);

        public static void Add(Dictionary<string, AccountingTotals> all, string scheme, IReadOnlyList<SchedulerStats> stats, double windowSeconds)
        {
            if (!all.TryGetValue(scheme, out AccountingTotals? t))
            {
                all[scheme] = t = new AccountingTotals(stats.Count);
            }

            t.WindowSeconds += windowSeconds;
            t._last.Clear();
            t._last.AddRange(stats);
            for (int i = 0; i < stats.Count; i++)
            {
                if (stats[i].CoreSeconds is not double core)
                {
                    t._missing = true;
                    continue;
                }

                t._core[i] = (t._core[i] ?? 0) + core;
                if (stats[i].IdleSeconds is double idle)
                {
                    t._idle[i] = (t._idle[i] ?? 0) + idle;
                }
                else
                {
                    t._idleMissing[i] = true;
                }
            }
        }

        /// <summary>The last snapshot with core and idle seconds replaced by the totals (null throughout if a repetition lacked them).</summary>
        public IReadOnlyList<SchedulerStats> Stats() => _last
            .Select((s, i) => s with { CoreSeconds = _missing ? null : _core[i], IdleSeconds = _missing || _idleMissing[i] ? null : _idle[i] })
            .ToArray();
    }
}
