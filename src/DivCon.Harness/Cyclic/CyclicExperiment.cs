using System.Globalization;
using DivCon.Harness.Factored;
using DivCon.Harness.Progress;
using DivCon.Metrics;
using DivCon.Metrics.Factored;
using DivCon.Metrics.Results;
using DivCon.Metrics.Schemes;
using DivCon.Metrics.Throttling;
using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;
using DivCon.Scheduling;

namespace DivCon.Harness.Cyclic;

/// <summary>
/// Runs one invocation of a <see cref="CyclicPlan"/> in this process: C^SP of every program (warm-up runs until the
/// last <see cref="CyclicSettings.SpRuns"/> runs are steady, <see cref="SteadyState"/>, then a correctness check), the
/// sequential baselines when a scheme needs scalabilities (<see cref="CyclicSettings.SequentialRuns"/> runs after one
/// warm-up: this invocation's scalability is their mean over its mean C^SP), each scheme's multiprogram phase in an
/// order shuffled from the seed and the invocation's number, and, when a scheme keeps per-program accounting, T_1 on a
/// 1-worker scheduler. Every run time is kept (<see cref="CyclicInvocation"/>). A full garbage collection precedes
/// each program's C^SP runs and each phase. A failing program abandons the invocation with
/// <see cref="ProgramRunException"/> (its message names the program, the scheme and the invocation): no partial result.
/// Several independent invocations are separate processes (<see cref="InvocationDriver"/>); the analysis of any number
/// of them is <see cref="CyclicResults.Build"/>. Run it on <see cref="HarnessThread"/> for real measurements. The CPU
/// budget is read once per invocation (or taken from the settings) and given to every scheduler it builds and to the
/// result; the cgroup's throttling counters are read around every timed run alone and every phase
/// (<see cref="CyclicInvocation.Throttling"/>).
/// </summary>
/// <param name="clock">The clock every run and phase is timed on.</param>
/// <param name="progress">Where progress goes (none: nowhere).</param>
public sealed class CyclicExperiment(TimeProvider clock, IRunProgress? progress = null)
{
    private readonly TimeProvider _clock = clock ?? throw new ArgumentNullException(nameof(clock));
    private readonly IRunProgress _progress = progress ?? LineProgress.None;

    /// <summary>
    /// Reads the throttling counters for a budget (default <see cref="CpuBudget.ReadThrottling()"/>); tests replace it
    /// with scripted readings.
    /// </summary>
    public Func<CpuBudget, CpuThrottling?> ReadThrottling { get; init; } = static budget => budget.ReadThrottling();

    /// <summary>
    /// Runs one invocation (number 1) and analyzes it alone with <paramref name="options"/> (default: the defaults): what
    /// <c>divcon cyclic</c> does with <c>--repeat 1</c>. One invocation has no scheme-level intervals and no comparisons
    /// (they need independent invocations).
    /// </summary>
    public async Task<CyclicResult> RunAsync(CyclicPlan plan, CancellationToken cancellationToken = default, AnalysisOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(plan);
        CpuBudget budget = plan.Settings.Budget ?? CpuBudget.Detect();
        plan = plan with { Settings = plan.Settings with { Budget = budget } };
        CyclicInvocation invocation = await RunInvocationAsync(plan, 1, 1, cancellationToken);
        return CyclicResults.Build(CyclicPlanRecord.From(plan, repeat: 1), [invocation], Describe(plan), options ?? new AnalysisOptions(),
            MachineInfo.Capture(budget), invocation.StartedUtc, invocation.ElapsedSeconds);
    }

    /// <summary>The schemes' descriptions by name, for <see cref="CyclicResults.Build"/>.</summary>
    public static Func<string, string> Describe(CyclicPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var byName = plan.Schemes.ToDictionary(s => s.Name, s => s.Description, StringComparer.OrdinalIgnoreCase);
        return name => byName.GetValueOrDefault(name) ?? SchemeCatalog.Find(name)?.Description ?? name;
    }

    /// <summary>
    /// Runs invocation <paramref name="invocation"/> of <paramref name="of"/> in this process and returns its raw times.
    /// </summary>
    public async Task<CyclicInvocation> RunInvocationAsync(CyclicPlan plan, int invocation, int of, CancellationToken cancellationToken = default)
    {
        Validate(plan);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(invocation);
        ArgumentOutOfRangeException.ThrowIfLessThan(of, invocation);
        CyclicSettings s = plan.Settings;
        CpuBudget budget = s.Budget ?? CpuBudget.Detect();
        plan = plan with { Settings = s = s with { Budget = budget } };
        var throttling = new ThrottlingRecorder(() => ReadThrottling(budget));
        DateTimeOffset startedUtc = _clock.GetUtcNow();
        long started = _clock.GetTimestamp();
        IReadOnlyList<IWorkloadProgram> programs = plan.Programs;
        int n = programs.Count;
        string tag = $"inv {invocation}/{of}";
        var measured = new InvocationProgram[n];
        for (int i = 0; i < n; i++)
        {
            measured[i] = await MeasureAloneAsync(plan, i, tag, invocation, started, throttling, cancellationToken);
        }

        if (plan.Schemes.Any(x => x.RequiresScalability))
        {
            _progress.Phase($"{tag} T_seq (scalability)", n * (s.SequentialRuns + 1));
            for (int i = 0; i < n; i++)
            {
                measured[i] = MeasureSequential(measured[i], programs[i], invocation, s.SequentialRuns, throttling, "tseq");
                Log(started, $"{tag} seq  {programs[i].Name,-16} T_seq {measured[i].SequentialSeconds.Average():0.000} s ({s.SequentialRuns} runs), scalability {measured[i].Scalability:0.00}");
            }
        }

        var phases = new Dictionary<string, InvocationScheme>();
        var order = new List<string>();
        foreach (SchemeDescriptor scheme in Order(plan.Schemes, s, invocation))
        {
            cancellationToken.ThrowIfCancellationRequested();
            order.Add(scheme.Name);
            CollectGarbage();
            var context = new SchemeContext(
                measured.Select(p => (p.Program, p.Scalability)).ToArray(), s.Processors, budget, s.OnlineScalability);
            // Statistics window (issue 7): from just before the arrangement registers the programs (a pool's
            // per-program counters start at registration) to the first stopped run, the moment a pool freezes its
            // statistics (MultiProgramPool.OnRunStopping), or to the snapshot if no run was stopped.
            long windowStart = _clock.GetTimestamp();
            var firstStop = new long[1];
            using SchedulerArrangement arrangement = CreateArrangement(scheme, context);
            var phasePrograms = programs
                .Select((p, i) => new PhaseProgram(p.Name, ct => RunInPhaseAsync(arrangement, i, p, () => MarkStop(firstStop), ct)))
                .ToArray();
            string label = $"{tag} {scheme.Name}";
            _progress.Phase(label, s.Duration.TotalSeconds);
            Log(started, $"{label}: {s.Duration.TotalSeconds:0.#} s with {string.Join(", ", programs.Select(p => p.Name))}");
            PhaseResult phase;
            var closePhaseWindow = throttling.Open();
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
                    string.Create(CultureInfo.InvariantCulture, $"{e.Message} (scheme '{scheme.Name}', invocation {invocation})"), e.InnerException);
            }

            throttling.Phase(scheme.Name, invocation, closePhaseWindow());
            long snapshotAt = _clock.GetTimestamp();
            IReadOnlyList<SchedulerStats> stats = arrangement.Snapshot();
            long windowEnd = Volatile.Read(ref firstStop[0]) is long stop and not 0 ? stop : snapshotAt;
            phases[scheme.Name] = new InvocationScheme(scheme.Name, phase.ProgramRuns(), phase.LimitSeconds, Seconds(windowEnd - windowStart), stats);
        }

        if (phases.Values.Any(p => p.Schedulers.Any(x => x.CoreSeconds is not null)))
        {
            await MeasureIsolatedTimesAsync(plan, tag, invocation, measured, started, throttling, cancellationToken);
        }

        return new CyclicInvocation(invocation, Environment.ProcessId, startedUtc, Seconds(_clock.GetTimestamp() - started), order, measured,
            [.. plan.Schemes.Select(x => phases[x.Name])], throttling.Result());
    }

    /// <summary>
    /// T_1 per program for the multiprogram decomposition, only when a scheme reported per-program accounting:
    /// <see cref="CyclicSettings.OneWorkerRuns"/> parallel runs on a 1-worker <see cref="WorkStealingTaskScheduler"/>
    /// (pinned to the first processor where possible); and T_s, when no scheme needed the sequential runs for its
    /// scalability, the same way as those. The programs' inputs were made before any timing; the JIT is warm from the
    /// C^SP runs.
    /// </summary>
    private async Task MeasureIsolatedTimesAsync(
        CyclicPlan plan, string tag, int invocation, InvocationProgram[] measured, long started, ThrottlingRecorder throttling, CancellationToken cancellationToken)
    {
        CyclicSettings s = plan.Settings;
        long t0 = _clock.GetTimestamp();
        _progress.Phase($"{tag} T_s, T_1 (factored speedups)", plan.Programs.Count);
        for (int i = 0; i < plan.Programs.Count; i++)
        {
            IWorkloadProgram program = plan.Programs[i];
            if (measured[i].SequentialSeconds.Count == 0)
            {
                measured[i] = MeasureSequential(measured[i], program, invocation, s.SequentialRuns, throttling, "ts");
            }

            CollectGarbage();
            using WorkStealingTaskScheduler one = Experiments.IsolatedTiming.Pinned([s.Processors[0]], s.Budget);
            var t1Throttling = new List<ThrottlingSample?>();
            var phaseProgram = throttling.Wrap(new PhaseProgram(program.Name, ct => program.RunAsync(one, ct)), t1Throttling);
            try
            {
                IReadOnlyList<double> runs = await CyclicProtocol.RunIsolatedAsync(phaseProgram, s.OneWorkerRuns, _clock, s.RunTimeout, cancellationToken);
                measured[i] = measured[i] with { OneWorkerSeconds = runs };
            }
            catch (ProgramRunException e)
            {
                throw new ProgramRunException(e.Program, $"{e.Message} (T_1 on one worker)", e.InnerException);
            }

            Guard(program.Name, "the check of its result on one worker", invocation, program.Verify);
            throttling.Alone(program.Name, "t1", invocation, t1Throttling);
            (IReadOnlyList<double> ts, IReadOnlyList<double> t1) = (measured[i].SequentialSeconds, measured[i].OneWorkerSeconds);
            Log(started, $"{tag} t1   {program.Name,-16} T_s {ts.Average():0.000} s, T_1 {t1.Average():0.000} s ({ts.Count} + {t1.Count} runs)");
        }

        Log(started, $"{tag} isolated T_s / T_1 for the factored speedups took {Seconds(_clock.GetTimestamp() - t0):0.0} s");
    }

    /// <summary>
    /// One warm-up run, then <paramref name="runs"/> timed runs of the sequential baseline, added to
    /// <paramref name="measured"/>, with the throttling of the timed ones recorded as <paramref name="measure"/>.
    /// </summary>
    private InvocationProgram MeasureSequential(
        InvocationProgram measured, IWorkloadProgram program, int invocation, int runs, ThrottlingRecorder throttling, string measure)
    {
        var all = new List<double>();
        var samples = new List<ThrottlingSample?>();
        for (int k = 0; k <= runs; k++)
        {
            CollectGarbage();
            var closeWindow = throttling.Open();
            long t0 = _clock.GetTimestamp();
            Guard(program.Name, "its sequential baseline", invocation, program.RunSequential);
            all.Add(Seconds(_clock.GetTimestamp() - t0));
            ThrottlingSample? sample = closeWindow();
            if (k > 0)
            {
                samples.Add(sample);
            }
        }

        throttling.Alone(program.Name, measure, invocation, samples);
        return measured with { SequentialWarmupSeconds = all.Take(1).ToArray(), SequentialSeconds = all.Skip(1).ToArray() };
    }

    private void MarkStop(long[] firstStop) => Interlocked.CompareExchange(ref firstStop[0], Math.Max(1, _clock.GetTimestamp()), 0);

    private async Task<InvocationProgram> MeasureAloneAsync(
        CyclicPlan plan, int i, string tag, int invocation, long started, ThrottlingRecorder throttling, CancellationToken cancellationToken)
    {
        CyclicSettings s = plan.Settings;
        IWorkloadProgram program = plan.Programs[i];
        CollectGarbage();
        var context = new SchemeContext([(program.Name, null)], s.Processors, s.Budget);
        using SchedulerArrangement arrangement = CreateArrangement(plan.SpScheme, context);
        // Every run's throttling is read; those of the counted window are kept (the warm-up's are not C^SP's).
        var runThrottling = new List<ThrottlingSample?>();
        var phaseProgram = throttling.Wrap(new PhaseProgram(program.Name, ct => program.RunAsync(arrangement.SchedulerFor(0), ct)), runThrottling);
        _progress.Phase($"{tag} C^SP {program.Name}", s.WarmupRuns + s.SpRuns);
        Log(started, $"{tag} sp {program.Name,-16} at least {s.WarmupRuns} warm-up, then until {s.SpRuns} runs have CV ≤ {s.SteadyCv:0.#%} (at most {s.MaxWarmupRuns} more), alone on {plan.SpScheme.Name} ...");
        try
        {
            var runs = new List<double>();
            SteadyState.Decision decision;
            do
            {
                IReadOnlyList<double> one = await CyclicProtocol.RunIsolatedAsync(phaseProgram, 1, _clock, s.RunTimeout, cancellationToken);
                runs.Add(one[0]);
                _progress.Advance(runs.Count, Stamp(started, $"{tag} sp {program.Name}: run {runs.Count} {one[0]:0.000} s"));
                decision = SteadyState.Decide(runs, s.WarmupRuns, s.SpRuns, s.SteadyCv, s.MaxWarmupRuns);
            }
            while (decision == SteadyState.Decision.Continue);

            Guard(program.Name, "the check of its result", invocation, program.Verify);
            throttling.Alone(program.Name, "csp", invocation, runThrottling.Skip(runThrottling.Count - s.SpRuns).ToArray());
            double[] window = runs.Skip(runs.Count - s.SpRuns).ToArray();
            double? cv = SteadyState.WindowCv(runs, s.SpRuns);
            bool steady = decision == SteadyState.Decision.Steady;
            Log(started, $"{tag} sp {program.Name,-16} {s.SpRuns} runs on {plan.SpScheme.Name} after {runs.Count - s.SpRuns} warm-up: mean {window.Average():0.000} s (min {window.Min():0.000}, max {window.Max():0.000}, CV {cv:0.0%}{(steady ? string.Empty : ", NOT steady: warm-up cap reached")})");
            return new InvocationProgram(program.Name, runs.Take(runs.Count - s.SpRuns).ToArray(), window, steady, cv, [], [], []);
        }
        catch (ProgramRunException e)
        {
            throw new ProgramRunException(e.Program,
                string.Create(CultureInfo.InvariantCulture, $"{e.Message} (single-program mode on '{plan.SpScheme.Name}', invocation {invocation})"),
                e.InnerException);
        }
    }

    /// <summary>
    /// A multiprogram run that tells the arrangement when the phase stops it (see
    /// <see cref="SchedulerArrangement.OnRunStopping"/>). Returns the program's own task, so the protocol sees exactly
    /// what it would without the notification.
    /// </summary>
    private static Task RunInPhaseAsync(SchedulerArrangement arrangement, int i, IWorkloadProgram program, Action markStop, CancellationToken ct)
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

    private static SchedulerArrangement CreateArrangement(SchemeDescriptor scheme, SchemeContext context)
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
    internal static void CollectGarbage()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
    }

    private static void Guard(string program, string what, int invocation, Action action)
    {
        try
        {
            action();
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            throw new ProgramRunException(program,
                string.Create(CultureInfo.InvariantCulture, $"Program '{program}' failed {what} (invocation {invocation}): {e.GetType().Name}: {e.Message}"), e);
        }
    }

    /// <summary>
    /// The order the schemes run in during invocation <paramref name="invocation"/>: shuffled by a generator seeded from
    /// the plan's seed and the invocation's number (the same in every process, unlike <see cref="HashCode"/>), so an
    /// invocation can be rerun exactly and no scheme always runs first or right after C^SP.
    /// </summary>
    internal static IReadOnlyList<SchemeDescriptor> Order(IReadOnlyList<SchemeDescriptor> schemes, CyclicSettings s, int invocation)
    {
        var order = schemes.ToArray();
        if (s.ShuffleSchemes)
        {
            new Random(unchecked((s.Seed * 1_000_003) + invocation)).Shuffle(order);
        }

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

        _ = new NamedList<IWorkloadProgram>(plan.Programs, p => p.Name, "Program", nameof(plan));
        if (plan.SpScheme.RequiresScalability)
        {
            throw new ArgumentException($"Scheme '{plan.SpScheme.Name}' needs scalabilities, so it cannot measure C^SP.", nameof(plan));
        }

        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(s.Duration, TimeSpan.Zero, "Duration");
        SteadyState.Decide([], s.WarmupRuns, s.SpRuns, s.SteadyCv, s.MaxWarmupRuns); // checks the C^SP window's counts and CV threshold
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(s.SequentialRuns, "SequentialRuns");
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(s.OneWorkerRuns, "OneWorkerRuns");

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
    /// last invocation's).
    /// </summary>
    internal static string? NoRunWarning(IReadOnlyList<SchedulerStats>? stats, string program, int index, double limitSeconds) =>
        stats is not null && index < stats.Count && stats[index] is { PoolId: not null, Workers: 0, CoreSeconds: double held } && held < 0.05 * limitSeconds
            ? string.Create(CultureInfo.InvariantCulture,
                $"Program '{program}' finished no run: the scheme's policy gave it almost no core ({held:0.000} core-seconds in a {limitSeconds:0.#} s phase, none at the end); with fewer cores than programs a partitioning policy may leave a program without any.")
            : null;

    private double Seconds(long ticks) => (double)ticks / _clock.TimestampFrequency;
}
