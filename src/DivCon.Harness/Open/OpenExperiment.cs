using System.Collections.Concurrent;
using System.Diagnostics;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Programs;
using DivCon.Harness.Progress;
using DivCon.Metrics.Results;
using DivCon.Metrics.Schemes;
using DivCon.Multiprogramming;
using DivCon.Scheduling;

namespace DivCon.Harness.Open;

/// <summary>
/// An open workload (issue 20, item 3): jobs arrive over time, run, and leave, and every scheme runs the same arrival
/// sequence. In order: (1) each job class alone: one warm-up, then <see cref="OpenSettings.AloneRuns"/> timed runs on a
/// work-stealing scheduler with a pinned worker per processor (the median is the class's time alone, every slowdown's
/// denominator, the same for every scheme) and as many on one worker (their ratio is the scalability the partitioned
/// schemes' policies get); (2) per repetition, its arrival sequence (seeded Poisson, or the trace), then each scheme in
/// an order shuffled from the seed and the repetition: a driver thread submits each job at its arrival time and the
/// completion of each job's task is timestamped on the thread that completes it; (3) every job's result is verified
/// and the numbers are computed from the raw times (<see cref="OpenAnalysis"/>).
/// </summary>
/// <remarks>
/// How a scheme hosts a job: <c>tpl-default</c> starts it on <see cref="TaskScheduler.Default"/>; <c>shared</c> on one
/// <see cref="WorkStealingTaskScheduler"/> with a pinned worker per processor; a partitioned scheme makes each job a
/// program of one <see cref="MultiProgramScheduler"/> (with the scheme's policy) that is added when the job arrives and
/// removed when it ends (<see cref="MultiProgramScheduler.RunProgramAsync(string, Func{CancellationToken, Task}, double?, CancellationToken)"/>).
/// Blocking compensation is on in both DivCon schedulers (their default, what an application gets). The schemes with a
/// scheduler per program (oversubscribed) are not offered: they would start a pool of threads per arriving job.
/// </remarks>
public static class OpenExperiment
{
    /// <summary>How long the jobs of one run may take after the last arrival before the run fails (nothing hangs).</summary>
    public static readonly TimeSpan DrainLimit = TimeSpan.FromMinutes(2);

    /// <summary>True for the schemes an open workload can run.</summary>
    public static bool Supports(SchemeInfo scheme)
    {
        ArgumentNullException.ThrowIfNull(scheme);
        return scheme.Arrangement is SchemeArrangement.ThreadPool or SchemeArrangement.Shared or SchemeArrangement.Partitioned;
    }

    /// <summary>Runs the experiment.</summary>
    /// <param name="classes">The job classes.</param>
    /// <param name="schemes">The schemes, in report order (each <see cref="Supports"/>).</param>
    /// <param name="baseline">The scheme the others are compared with (one of <paramref name="schemes"/>).</param>
    /// <param name="settings">What to run.</param>
    /// <param name="trace">The arrivals of every repetition, or null for Poisson arrivals at the settings' rate and duration.</param>
    /// <param name="budget">The CPU budget the schedulers are sized against.</param>
    /// <param name="progress">Where progress goes.</param>
    /// <param name="cancellationToken">Stops the experiment (no result).</param>
    public static async Task<OpenResult> RunAsync(
        IReadOnlyList<OpenJobClass> classes, IReadOnlyList<SchemeInfo> schemes, string baseline, OpenSettings settings,
        IReadOnlyList<Arrival>? trace, CpuBudget budget, IRunProgress progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(classes);
        ArgumentNullException.ThrowIfNull(schemes);
        ArgumentNullException.ThrowIfNull(settings);
        ArgumentNullException.ThrowIfNull(progress);
        if (schemes.FirstOrDefault(s => !Supports(s)) is { } unsupported)
        {
            throw new ArgumentException($"Scheme '{unsupported.Name}' cannot run an open workload.", nameof(schemes));
        }

        DateTimeOffset started = DateTimeOffset.UtcNow;
        var clock = Stopwatch.StartNew();
        var arrivalsByRepetition = Enumerable.Range(0, settings.Repetitions)
            .Select(r => trace ?? Arrivals.Poisson(settings.Rate!.Value, settings.DurationSeconds!.Value,
                classes.Select(c => (c.Name, c.Weight)).ToArray(), Arrivals.SeedOf(settings.Seed, r)))
            .ToList();
        // Enough instances of a class that cannot run two jobs at once for every job of it in a repetition.
        var pools = classes.ToDictionary(c => c.Name, c => new InstancePool(c, arrivalsByRepetition.Max(a => a.Count(x => x.Class == c.Name))));

        var infos = new List<OpenClassInfo>();
        foreach (OpenJobClass c in classes)
        {
            infos.Add(await MeasureAloneAsync(c, pools[c.Name], settings, budget, progress, cancellationToken).ConfigureAwait(true));
        }

        var repetitions = new List<OpenRepetition>();
        for (int r = 0; r < settings.Repetitions; r++)
        {
            IReadOnlyList<Arrival> arrivals = arrivalsByRepetition[r];
            SchemeInfo[] order = [.. schemes];
            new Random(Arrivals.SeedOf(settings.Seed ^ 0x5eed, r)).Shuffle(order);
            var runs = new List<OpenRun>();
            foreach (SchemeInfo scheme in order)
            {
                double span = arrivals.Count == 0 ? 0 : arrivals[^1].AtSeconds;
                progress.Phase($"rep {r + 1}/{settings.Repetitions} {scheme.Name}", Math.Max(span, 0.001));
                OpenRun run = await RunSchemeAsync(scheme, arrivals, infos, pools, settings, budget, progress, cancellationToken).ConfigureAwait(true);
                runs.Add(run);
                progress.Line(string.Create(System.Globalization.CultureInfo.InvariantCulture,
                    $"rep {r + 1} {scheme.Name}: {arrivals.Count} jobs in {run.ElapsedSeconds:0.00} s, {OpenAnalysis.Throughput(run):0.0} jobs/s, utilisation {OpenAnalysis.Utilization(run):P0}"));
            }

            repetitions.Add(new OpenRepetition(r, arrivals, runs));
        }

        foreach (InstancePool pool in pools.Values)
        {
            pool.VerifyAll();
        }

        string[] names = [.. schemes.Select(s => s.Name)];
        return new OpenResult(settings, infos, names, baseline, repetitions,
            OpenAnalysis.Summarize(infos, names, repetitions), OpenAnalysis.Compare(infos, names, baseline, repetitions))
        {
            StartedUtc = started,
            ElapsedSeconds = clock.Elapsed.TotalSeconds,
            Machine = MachineInfo.Capture(budget),
        };
    }

    private static async Task<OpenClassInfo> MeasureAloneAsync(
        OpenJobClass c, InstancePool pool, OpenSettings settings, CpuBudget budget, IRunProgress progress, CancellationToken cancellationToken)
    {
        progress.Phase($"alone {c.Name}", 2 * settings.AloneRuns);
        IWorkloadProgram program = pool.Take();
        try
        {
            double[] all = await TimeRunsAsync(program, settings.Processors, "open alone", settings.AloneRuns, budget, cancellationToken).ConfigureAwait(true);
            double alone = OpenAnalysis.Quantile(all, 0.5);
            progress.Advance(settings.AloneRuns, $"alone {c.Name}: median {alone:0.0} ms on {settings.Processors.Count} workers");
            double[] one = await TimeRunsAsync(program, [.. settings.Processors.Take(1)], "open one", settings.AloneRuns, budget, cancellationToken).ConfigureAwait(true);
            double oneWorker = OpenAnalysis.Quantile(one, 0.5);
            progress.Advance(2 * settings.AloneRuns, $"alone {c.Name}: median {oneWorker:0.0} ms on 1 worker");
            return new OpenClassInfo(c.Name, c.Role, c.Description, c.Weight, alone, oneWorker, oneWorker / alone, all, one);
        }
        finally
        {
            pool.Return(program);
        }
    }

    /// <summary>One warm-up run of <paramref name="program"/>, then <paramref name="runs"/> timed ones, on a scheduler of its own.</summary>
    private static async Task<double[]> TimeRunsAsync(
        IWorkloadProgram program, IReadOnlyList<int> processors, string threadName, int runs, CpuBudget budget, CancellationToken cancellationToken)
    {
        using WorkStealingTaskScheduler scheduler = Pinned(processors, budget, threadName);
        var times = new double[runs];
        for (int i = -1; i < runs; i++)
        {
            long start = Stopwatch.GetTimestamp();
            await program.RunAsync(scheduler, cancellationToken).ConfigureAwait(true);
            if (i >= 0)
            {
                times[i] = Stopwatch.GetElapsedTime(start).TotalMilliseconds;
            }
        }

        return times;
    }

    /// <summary>A work-stealing scheduler with a worker pinned (best effort) to each of <paramref name="processors"/>.</summary>
    private static WorkStealingTaskScheduler Pinned(IReadOnlyList<int> processors, CpuBudget budget, string threadName) =>
        new(new WorkStealingSchedulerOptions { Processors = processors, BestEffortPinning = true, Budget = budget, ThreadName = threadName });

    private static async Task<OpenRun> RunSchemeAsync(
        SchemeInfo scheme, IReadOnlyList<Arrival> arrivals, IReadOnlyList<OpenClassInfo> infos, Dictionary<string, InstancePool> pools,
        OpenSettings settings, CpuBudget budget, IRunProgress progress, CancellationToken cancellationToken)
    {
        var scalability = infos.ToDictionary(i => i.Name, i => Math.Max(i.Scalability, 0.01));
        using var host = Host.Create(scheme, settings, budget);
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        int n = arrivals.Count;
        var completed = new long[n];
        var jobs = new Task[n];
        var lag = new double[n];
        var driverDone = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        TimeSpan cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
        long origin = Stopwatch.GetTimestamp();

        // The driver: a dedicated thread that sleeps until each arrival and submits the job, so that submissions do not
        // wait behind the jobs of a scheme that uses the thread pool.
        var driver = new Thread(() =>
        {
            try
            {
                for (int i = 0; i < n; i++)
                {
                    WaitUntil(origin, arrivals[i].AtSeconds, stop.Token);
                    InstancePool pool = pools[arrivals[i].Class];
                    IWorkloadProgram program = pool.Take();
                    int index = i;
                    lag[i] = (Stopwatch.GetElapsedTime(origin).TotalSeconds - arrivals[i].AtSeconds) * 1000;
                    jobs[i] = host.Submit($"{arrivals[i].Class} #{i}", scalability[arrivals[i].Class], (scheduler, token) =>
                    {
                        Task run = program.RunAsync(scheduler, token);
                        // Timestamped on the thread that completes the job, the same point under every scheme.
                        _ = run.ContinueWith(
                            _ =>
                            {
                                completed[index] = Stopwatch.GetTimestamp();
                                pool.Return(program);
                            },
                            CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
                        return run;
                    }, stop.Token);
                }

                driverDone.SetResult();
            }
            catch (Exception e)
            {
                driverDone.SetException(e);
            }
        })
        { IsBackground = true, Name = "open driver" };
        driver.Start();

        try
        {
            double span = n == 0 ? 0 : arrivals[^1].AtSeconds;
            await driverDone.Task.WaitAsync(TimeSpan.FromSeconds(span) + DrainLimit, cancellationToken).ConfigureAwait(true);
            await Task.WhenAll(jobs).WaitAsync(DrainLimit, cancellationToken).ConfigureAwait(true);
        }
        catch (TimeoutException)
        {
            await stop.CancelAsync().ConfigureAwait(true);
            throw new TimeoutException($"Scheme {scheme.Name}: the jobs did not finish within {DrainLimit.TotalSeconds:0} s of the last arrival.");
        }
        catch (Exception e) when (e is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            await stop.CancelAsync().ConfigureAwait(true);
            int failed = Array.FindIndex(jobs, j => j is { IsFaulted: true });
            string which = failed >= 0 ? $"job {failed} ({arrivals[failed].Class}): {jobs[failed].Exception!.InnerException!.Message}" : e.Message;
            throw new ProgramRunException(scheme.Name, $"Scheme {scheme.Name}: {which}", e);
        }

        // Every job's completion timestamp is written before its task's continuations run (ExecuteSynchronously on the
        // completing thread, registered before the task was handed out), so WhenAll having completed means all are set.
        long last = completed.DefaultIfEmpty(origin).Max();
        double elapsed = Math.Max((last - origin) / (double)Stopwatch.Frequency, 1e-6);
        TimeSpan cpu = Process.GetCurrentProcess().TotalProcessorTime - cpuBefore;
        double[] turnaround = [.. arrivals.Select((a, i) => (((completed[i] - origin) / (double)Stopwatch.Frequency) - a.AtSeconds) * 1000)];

        progress.Advance(n == 0 ? 0.001 : arrivals[^1].AtSeconds, $"{scheme.Name}: done");
        return new OpenRun(scheme.Name, elapsed, cpu.TotalSeconds, settings.Processors.Count, lag.DefaultIfEmpty(0).Max(), turnaround);
    }

    private static void WaitUntil(long origin, double atSeconds, CancellationToken cancellationToken)
    {
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            double remainingMs = (atSeconds - Stopwatch.GetElapsedTime(origin).TotalSeconds) * 1000;
            if (remainingMs <= 0)
            {
                return;
            }

            // Sleep while far, then yield: arrivals are on time to well under a millisecond without burning a core.
            if (remainingMs > 2)
            {
                Thread.Sleep((int)(remainingMs - 1));
            }
            else
            {
                Thread.Yield();
            }
        }
    }

    /// <summary>
    /// Instances of one class, each made and initialised here: one shared instance when reentrant, else one per
    /// concurrently running job (<paramref name="jobs"/> of them, more on demand).
    /// </summary>
    private sealed class InstancePool(OpenJobClass jobClass, int jobs)
    {
        private readonly IWorkloadProgram? _shared = jobClass.Reentrant ? Make(jobClass) : null;
        private readonly ConcurrentBag<IWorkloadProgram> _free =
            new(jobClass.Reentrant ? [] : Enumerable.Range(0, Math.Max(jobs, 1)).Select(_ => Make(jobClass)));
        private readonly HashSet<IWorkloadProgram> _used = [];   // under the lock: instances that ran a job

        public IWorkloadProgram Take()
        {
            IWorkloadProgram program = _shared ?? (_free.TryTake(out IWorkloadProgram? p) ? p : Make(jobClass));
            lock (_used)
            {
                _used.Add(program);
            }

            return program;
        }

        public void Return(IWorkloadProgram program)
        {
            if (!jobClass.Reentrant)
            {
                _free.Add(program);
            }
        }

        /// <summary>Checks the result of every instance that ran (throws <see cref="InvalidOperationException"/> for a wrong one).</summary>
        public void VerifyAll()
        {
            lock (_used)
            {
                foreach (IWorkloadProgram p in _used)
                {
                    p.Verify();
                }
            }
        }

        private static IWorkloadProgram Make(OpenJobClass jobClass)
        {
            IWorkloadProgram p = jobClass.Create();
            p.Initialize();
            return p;
        }
    }

    /// <summary>Where a scheme runs jobs: <see cref="Submit"/> starts one (its last function gets the scheduler to run on and the token).</summary>
    private sealed record Host(Func<string, double, Func<TaskScheduler, CancellationToken, Task>, CancellationToken, Task> Submit, IDisposable? Lifetime)
        : IDisposable
    {
        public static Host Create(SchemeInfo scheme, OpenSettings settings, CpuBudget budget)
        {
            switch (scheme.Arrangement)
            {
                case SchemeArrangement.ThreadPool:
                    return new Host((_, _, start, token) => start(TaskScheduler.Default, token), null);
                case SchemeArrangement.Shared:
                    WorkStealingTaskScheduler shared = Pinned(settings.Processors, budget, "open shared");
                    return new Host((_, _, start, token) => start(shared, token), shared);
                case SchemeArrangement.Partitioned:
                    var programs = new MultiProgramScheduler(new MultiProgramSchedulerOptions
                    {
                        Processors = settings.Processors,
                        BestEffortPinning = true,
                        Budget = budget,
                        Policy = scheme.CreatePolicy!(),
                        IdleLending = scheme.IdleLending,
                        RepartitionInterval = TimeSpan.FromMilliseconds(settings.RepartitionIntervalMs),
                        ThreadName = $"open {scheme.Name}",
                    });
                    // Each job is a program of its own, added on arrival and removed when it ends.
                    return new Host(
                        (name, scalability, start, token) => programs.RunProgramAsync(name, t => start(TaskScheduler.Current, t), scalability, token), programs);
                default:
                    throw new ArgumentOutOfRangeException(nameof(scheme), scheme.Arrangement, "Not an open-workload scheme.");
            }
        }

        public void Dispose() => Lifetime?.Dispose();
    }
}
