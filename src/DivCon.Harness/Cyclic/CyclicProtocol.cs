namespace DivCon.Harness.Cyclic;

/// <summary>
/// The cyclic test protocol of thesis §5.4.1, against an injectable clock (<see cref="TimeProvider"/>):
/// <list type="number">
/// <item>Single-program mode: <see cref="RunIsolatedAsync"/> runs one program alone, run after run; the mean of the
/// durations is C^SP.</item>
/// <item>Multiprogram mode: <see cref="RunMultiprogramAsync"/> starts every program at once; as soon as a run ends
/// its time is recorded and the program is restarted at once, until the time limit. Runs still going at the limit
/// are stopped (their token is canceled) and discarded; the mean of a program's recorded runs is C^MP.</item>
/// </list>
/// <para>
/// Threading: the methods are async and take every decision in their own continuations, which run wherever the
/// caller's SynchronizationContext sends them (the CLI runs them on a dedicated harness thread,
/// <see cref="HarnessThread"/>, so that restarts are not queued behind the programs' own work on the thread pool;
/// tests run them on a single-threaded virtual-time pump). Run end times are read in a continuation that executes
/// synchronously on the thread that completes the run, so the measured duration does not include the delay before
/// the harness notices.
/// </para>
/// <para>
/// Which runs count is decided by timestamps alone, never by the order in which the harness sees events: a run is
/// recorded iff it completed successfully with end ≤ start of phase + limit; a program is restarted iff its run
/// ended before that instant. (A run due to end at the very instant of the limit may be stopped by the limit first
/// and then counts as discarded; with a real clock such a tie has probability zero.)
/// </para>
/// <para>
/// Failure: if any run faults (or a program cannot be started) the phase stops every other run, waits for them (at
/// most <c>stopGrace</c>), and throws <see cref="ProgramRunException"/> naming the program. A run that ignores
/// cancellation for longer than <c>stopGrace</c> also gives <see cref="ProgramRunException"/> rather than a hang.
/// </para>
/// </summary>
public static class CyclicProtocol
{
    /// <summary>
    /// Runs <paramref name="program"/> alone <paramref name="runs"/> times in a row and returns each run's duration in
    /// seconds. A run that faults, or takes longer than <paramref name="runTimeout"/>, gives <see cref="ProgramRunException"/>.
    /// </summary>
    public static async Task<IReadOnlyList<double>> RunIsolatedAsync(
        PhaseProgram program, int runs, TimeProvider clock, TimeSpan runTimeout, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(program);
        ArgumentNullException.ThrowIfNull(clock);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(runs);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(runTimeout, TimeSpan.Zero);

        var durations = new double[runs];
        for (int k = 0; k < runs; k++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            using var runCts = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            (Task run, Task<long> ended, long start) = Start(program, clock, runCts.Token);
            using var timeoutCts = new CancellationTokenSource();
            Task timeout = Task.Delay(runTimeout, clock, timeoutCts.Token);
            Task first = await Task.WhenAny(ended, timeout);
            if (first != ended)
            {
                // Ask it to stop and give it a bounded moment, so the caller does not dispose a scheduler under it.
                runCts.Cancel();
                await Task.WhenAny(ended, Task.Delay(TimeSpan.FromSeconds(30), clock, CancellationToken.None));
                throw new ProgramRunException(program.Name,
                    $"Program '{program.Name}' did not finish a single-program run within {Seconds(runTimeout)}.");
            }

            timeoutCts.Cancel();
            long end = await ended;
            cancellationToken.ThrowIfCancellationRequested();
            if (IsFailure(run) || run.IsCanceled)
            {
                throw Failure(program.Name, run, "a single-program run");
            }

            durations[k] = ToSeconds(end - start, clock);
        }

        return durations;
    }

    /// <summary>
    /// Runs every program of <paramref name="programs"/> together, restarting each as soon as it ends, until
    /// <paramref name="limit"/>; see the type's remarks for which runs count.
    /// </summary>
    /// <param name="programs">At least one program.</param>
    /// <param name="limit">The time limit; positive.</param>
    /// <param name="clock">The clock that measures runs and the limit.</param>
    /// <param name="stopGrace">How long runs may take to stop once canceled at the limit (or after a failure).</param>
    /// <param name="progress">Called on the harness's context after each run ends; may be null.</param>
    /// <param name="cancellationToken">Abandons the phase (every run is stopped; then <see cref="OperationCanceledException"/>).</param>
    public static async Task<PhaseResult> RunMultiprogramAsync(IReadOnlyList<PhaseProgram> programs, TimeSpan limit, TimeProvider clock, TimeSpan stopGrace,
        Action<PhaseProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(programs);
        ArgumentNullException.ThrowIfNull(clock);
        if (programs.Count == 0)
        {
            throw new ArgumentException("A multiprogram phase needs at least one program.", nameof(programs));
        }

        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(limit, TimeSpan.Zero);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(stopGrace, TimeSpan.Zero);

        int n = programs.Count;
        string[] names = programs.Select(p => p.Name).ToArray();
        var runs = new List<RunRecord>();
        var recorded = new int[n];
        var current = new Task[n];
        var ended = new Task<long>?[n];
        var starts = new long[n];

        // Canceled at the limit (and on failure or outer cancellation): stops every run still going.
        using var stopCts = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        using var limitCts = new CancellationTokenSource();

        long phaseStart = clock.GetTimestamp();
        long limitTimestamp = phaseStart + (long)Math.Round(limit.TotalSeconds * clock.TimestampFrequency);
        Task limitReached = Task.Delay(limit, clock, limitCts.Token);
        for (int i = 0; i < n; i++)
        {
            (current[i], ended[i], starts[i]) = Start(programs[i], clock, stopCts.Token);
        }

        (string Program, Task Run, string When)? failure = null;
        Exception? harnessError = null;
        bool canceled = false;
        var canceledSignal = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using CancellationTokenRegistration registration = cancellationToken.Register(static s => ((TaskCompletionSource)s!).TrySetResult(), canceledSignal);
        Task cancel = canceledSignal.Task;
        try
        {
            while (true)
            {
                if (cancellationToken.IsCancellationRequested)
                {
                    canceled = true;
                    break;
                }

                Task[] waitingOn = [cancel, limitReached, .. ended.OfType<Task<long>>()];
                if (waitingOn.Length == 2)
                {
                    break; // every program's last run ended past the limit before the limit timer fired
                }

                Task first = await Task.WhenAny(waitingOn);
                if (first == cancel)
                {
                    canceled = true;
                    break;
                }

                if (first == limitReached)
                {
                    break;
                }

                int i = Array.IndexOf(ended, first);
                long end = await ended[i]!;
                ended[i] = null;
                // Before the stop, a canceled run is a failure too: nobody asked it to stop.
                if (IsFailure(current[i]) || current[i].IsCanceled)
                {
                    failure = (names[i], current[i], "a multiprogram run");
                    Record(i, end);
                    break;
                }

                if (Record(i, end))
                {
                    recorded[i]++;
                }

                progress?.Invoke(new PhaseProgress(ToSeconds(end - phaseStart, clock), limit.TotalSeconds, names, recorded.ToArray()));
                if (end < limitTimestamp)
                {
                    (current[i], ended[i], starts[i]) = Start(programs[i], clock, stopCts.Token);
                }
            }
        }
        catch (Exception e)
        {
            // The harness's own failure (a progress callback that threw): still stop and wait for the runs below
            // before rethrowing, so no program's work outlives the phase.
            harnessError = e;
        }
        finally
        {
            // Stop everything still going: the limit has passed, a program failed, or the caller canceled.
            limitCts.Cancel();
            stopCts.Cancel();
        }

        // Wait (bounded) for the stopped runs so that no program's work outlives the phase (the caller disposes the
        // schedulers next). A stopped run that nonetheless completed successfully by the limit is still recorded:
        // which runs count depends on timestamps, not on the order the harness saw them.
        var pending = Enumerable.Range(0, n).Where(i => ended[i] is not null).ToArray();
        if (pending.Length > 0)
        {
            Task all = Task.WhenAll(pending.Select(i => (Task)ended[i]!));
            using var graceCts = new CancellationTokenSource();
            Task grace = Task.Delay(stopGrace, clock, graceCts.Token);
            if (await Task.WhenAny(all, grace) != all)
            {
                string stuck = string.Join(", ", pending.Where(i => !ended[i]!.IsCompleted).Select(i => $"'{names[i]}'"));
                throw new ProgramRunException(names[pending.First(i => !ended[i]!.IsCompleted)],
                    $"Program(s) {stuck} did not stop within {Seconds(stopGrace)} of being canceled.");
            }

            graceCts.Cancel();
            foreach (int i in pending)
            {
                long end = await ended[i]!;
                if (failure is null && IsFailure(current[i]))
                {
                    failure = (names[i], current[i], "a multiprogram run (while being stopped)");
                }

                Record(i, end);
            }
        }

        if (harnessError is not null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(harnessError);
        }

        if (failure is { } f)
        {
            throw Failure(f.Program, f.Run, f.When);
        }

        if (canceled)
        {
            throw new OperationCanceledException("The multiprogram phase was canceled.", cancellationToken);
        }

        return new PhaseResult(names, limit.TotalSeconds, runs);

        // Adds program i's run that ended at end; it counts iff it completed successfully by the limit.
        bool Record(int i, long end)
        {
            bool inTime = end <= limitTimestamp && current[i].IsCompletedSuccessfully;
            runs.Add(new RunRecord(i, ToSeconds(starts[i] - phaseStart, clock), ToSeconds(end - phaseStart, clock), inTime));
            return inTime;
        }
    }

    private static (Task Run, Task<long> Ended, long Start) Start(PhaseProgram program, TimeProvider clock, CancellationToken token)
    {
        long start = clock.GetTimestamp();
        Task run;
        try
        {
            run = program.StartRun(token) ?? Task.FromException(new InvalidOperationException("StartRun returned null."));
        }
        catch (Exception e)
        {
            run = Task.FromException(e);
        }

        // Executes synchronously on the thread that completes the run: the end timestamp is taken at completion, not
        // when the harness thread gets round to it.
        Task<long> ended = run.ContinueWith(
            static (_, c) => ((TimeProvider)c!).GetTimestamp(),
            clock,
            CancellationToken.None,
            TaskContinuationOptions.ExecuteSynchronously,
            TaskScheduler.Default);
        return (run, ended, start);
    }

    /// <summary>A faulted run is a failure unless every exception in it is a cancellation (the run was stopped).</summary>
    private static bool IsFailure(Task run) =>
        run.IsFaulted && !run.Exception!.Flatten().InnerExceptions.All(e => e is OperationCanceledException);

    private static ProgramRunException Failure(string program, Task run, string when)
    {
        Exception? inner = run.Exception?.Flatten().InnerExceptions.FirstOrDefault(e => e is not OperationCanceledException);
        return inner is null
            ? new ProgramRunException(program, $"Program '{program}' canceled itself during {when} without being asked to stop.")
            : new ProgramRunException(program, $"Program '{program}' failed during {when}: {inner.GetType().Name}: {inner.Message}", inner);
    }

    private static double ToSeconds(long ticks, TimeProvider clock) => (double)ticks / clock.TimestampFrequency;

    private static string Seconds(TimeSpan t) => t.TotalSeconds.ToString("0.###", System.Globalization.CultureInfo.InvariantCulture) + " s";
}
