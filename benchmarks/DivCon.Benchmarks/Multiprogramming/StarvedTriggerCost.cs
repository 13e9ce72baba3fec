using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using DivCon.Multiprogramming;
using DivCon.Samples;
using DivCon.Scheduling;

namespace DivCon.Benchmarks.Multiprogramming;

/// <summary>
/// What the starved-program trigger (<see cref="MultiProgramSchedulerOptions.RepartitionWhenStarved"/>, on by default)
/// costs a batch of busy programs: K programs share a fixed amount of work on one <see cref="MultiProgramScheduler"/> with
/// the default options (default policy, <see cref="MultiProgramSchedulerOptions.RepartitionInterval"/> 100 ms unless
/// <c>--interval-ms</c> says otherwise), and on one built the same way with the trigger off. With more busy programs
/// than workers every moving decision leaves a program starved, whose decision follows one
/// <see cref="MultiProgramSchedulerOptions.StarvedRepartitionGap"/> (2 ms) later, so with the trigger on the cores
/// rotate at about that pace instead of once per interval. Workloads:
/// <list type="bullet">
/// <item><b>loops</b>: each program runs back-to-back <c>await ParallelForAsync</c> loops (~2 ms of sequential work
/// each) in chunks of about <c>--chunk-us</c> (many small tasks), summing <see cref="LoopMoveLatency"/>'s item (a
/// fraction of a microsecond);</item>
/// <item><b>mergesort</b>: each program runs the D&amp;C sample <see cref="MergeSort"/> (small size, 2^18 ints, automatic
/// granularity for 2 cores) back to back.</item>
/// </list>
/// For K = 2, 3 and 5 programs (with 2 workers, K = 2 starves nobody: the control), each round runs the case once with
/// the trigger on and once off (order alternating by round; a fresh scheduler each time), after one warm-up pair that
/// is not counted. Prints per case:
/// <list type="bullet">
/// <item>the median over rounds of the ratio on/off of the total completion time (from the start of all programs to the
/// end of the last), with its smallest and largest;</item>
/// <item>the same for the process's CPU time: the same work's computation, which a loaded machine does not distort as
/// it does the completion time by lending the process fewer processors than it has workers;</item>
/// <item>the medians of each configuration's completion time, of the cores the process got (CPU time / completion
/// time), of the part of the run its workers were runnable but waiting for a processor (Linux), of moves per second
/// (<see cref="AllocationTimeline.Recorded"/>), of decisions started by demand per second
/// (<see cref="MultiProgramScheduler.DemandRepartitions"/>: starved programs', and newcomers' while their quantum
/// lasts), and of the repartitioner thread's part of the process's CPU time (Linux);</item>
/// </list>
/// then every run's raw figures. Each result is checked (loop sums, sorted output).
/// </summary>
/// <remarks>
/// Run: <c>dotnet run -c Release --project benchmarks/DivCon.Benchmarks -- starved-trigger-cost [--rounds 8]
/// [--work-ms 1500] [--sorts 60] [--interval-ms 100] [--chunk-us 20]</c>: 2 × (rounds + 1) runs of each case, each
/// about (work-ms + the sorts' sequential time) / workers. With the defaults: 6.5 minutes at a load average of 20 to 28
/// on 2 cores (2026-11-24), less on a quiet machine.
/// </remarks>
public static class StarvedTriggerCost
{
    public const string Command = "starved-trigger-cost";

    private static readonly TimeSpan Bound = TimeSpan.FromMinutes(2);
    private static readonly int[] ProgramCounts = [2, 3, 5];

    // The threads' names as /proc shows them (15 characters): MultiProgramSchedulerOptions.ThreadName's default, the repartitioner's.
    private const string WorkerComm = "DivCon mp worke";
    private const string RepartitionerComm = "DivCon repartit";

    public static int Run(string[] args)
    {
        int rounds = 8;
        double workMs = 1500;
        int sorts = 60;
        int intervalMs = 100;
        double chunkUs = 20;
        if (!NumericOption.TryParse(
            Command,
            args,
            new NumericOption("--rounds", "N", 1, v => rounds = (int)v),
            new NumericOption("--work-ms", "MS", 10, v => workMs = v, Integer: false),
            new NumericOption("--sorts", "N", 5, v => sorts = (int)v),
            new NumericOption("--interval-ms", "MS", 1, v => intervalMs = (int)v),
            new NumericOption("--chunk-us", "US", 1, v => chunkUs = v, Integer: false)))
        {
            return 2;
        }

        double itemMs = LoopMoveLatency.ItemMilliseconds();
        int chunk = Math.Max(1, (int)Math.Round(chunkUs / 1000 / itemMs));
        int loopItems = Math.Max(chunk, (int)Math.Round(2.0 / itemMs));
        Workload[] workloads =
        [
            new LoopWorkload(loopItems, chunk, totalLoops: Math.Max(1, (int)Math.Round(workMs / 2.0))),
            new SortWorkload(sorts),
        ];

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{Command}: {Environment.ProcessorCount} processors, {RuntimeInformation.OSDescription.Trim()}, {RuntimeInformation.FrameworkDescription}; load average at start: {LoadAverage()}"));
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"Options: --rounds {rounds} --work-ms {workMs} --sorts {sorts} --interval-ms {intervalMs} --chunk-us {chunkUs}. Default scheduler options otherwise (StarvedRepartitionGap 2 ms, NewcomerQuantum 8 ms, default policy)."));
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"loops: an item takes {itemMs * 1000:0.000} us; {loopItems} items a loop (~2 ms), chunks of {chunk} items (~{chunk * itemMs * 1000:0} us), {workloads[0].TotalUnits} loops shared by the programs. mergesort: 2^18 ints a sort, {sorts} sorts shared by the programs."));

        var cases = new List<CaseResult>();
        foreach (Workload workload in workloads)
        {
            foreach (int k in ProgramCounts)
            {
                cases.Add(RunCase(workload, k, rounds, TimeSpan.FromMilliseconds(intervalMs)));
            }
        }

        Console.WriteLine();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"Starved trigger on / off, {rounds} rounds; workers {cases[0].Workers} (pinned: {cases[0].Pinned}); interval {intervalMs} ms; load average at end: {LoadAverage()}"));
        Console.WriteLine("  case           ratio on/off: time median [min, max]     CPU time median [min, max]     time ms on / off     cores used on / off     workers waiting on / off     moves/s on / off     demand decisions/s on / off     repartitioner's CPU on / off");
        foreach (CaseResult c in cases)
        {
            c.WriteSummary();
        }

        Console.WriteLine();
        Console.WriteLine("Raw runs (round, configuration, completion ms, CPU ms, mean program completion ms, moves, demand decisions, all decisions, workers' busy ms, workers' idle ms, compensating workers, each worker thread's ms on a processor / runnable waiting for one, the repartitioner thread's ms on a processor):");
        foreach (CaseResult c in cases)
        {
            c.WriteRaw();
        }

        return 0;
    }

    private static CaseResult RunCase(Workload workload, int k, int rounds, TimeSpan interval)
    {
        var result = new CaseResult($"{workload.Name} K={k}", rounds);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{result.Name}: each program {workload.UnitsPerProgram(k)} {workload.Unit}; load average {LoadAverage()}"));
        for (int round = -1; round < rounds; round++)
        {
            // Alternate which configuration goes first, so that a drift of the machine's load within a round does not
            // favour one of them.
            bool onFirst = round % 2 == 0;
            bool[] order = onFirst ? [true, false] : [false, true];
            foreach (bool on in order)
            {
                RunResult run = RunOnce(workload, k, on, interval, out int workers, out bool pinned);
                (result.Workers, result.Pinned) = (workers, pinned);
                if (round >= 0)
                {
                    (on ? result.On : result.Off)[round] = run;
                }
            }
        }

        return result;
    }

    private static RunResult RunOnce(Workload workload, int k, bool starvedTrigger, TimeSpan interval, out int workers, out bool pinned)
    {
        using var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            BestEffortPinning = true,
            RepartitionWhenStarved = starvedTrigger,
            RepartitionInterval = interval,
        });
        (workers, pinned) = (mps.WorkerCount, mps.IsPinned);
        var programs = new ProgramHandle[k];
        for (int i = 0; i < k; i++)
        {
            programs[i] = mps.AddProgram($"p{i}");
        }

        int units = workload.UnitsPerProgram(k);
        var finished = new long[k];
        using var process = Process.GetCurrentProcess();
        process.Refresh();
        TimeSpan cpu0 = process.TotalProcessorTime;
        long moves0 = mps.Timeline.Recorded;
        long demand0 = mps.DemandRepartitions;
        long decisions0 = mps.Repartitions;
        Dictionary<int, ThreadTime> threads0 = ThreadTime.Read();
        long start = Stopwatch.GetTimestamp();
        var runs = new Task[k];
        for (int i = 0; i < k; i++)
        {
            int index = i;
            ProgramHandle program = programs[i];
            runs[i] = program.Run(async () =>
            {
                await workload.RunProgramAsync(program, index, units).ConfigureAwait(false);
                finished[index] = Stopwatch.GetTimestamp();
            });
        }

        if (!Task.WaitAll(runs, Bound))
        {
            throw new TimeoutException(string.Create(CultureInfo.InvariantCulture,
                $"{workload.Name} K={k} (trigger {(starvedTrigger ? "on" : "off")}): not done within {Bound.TotalSeconds} s; served workers {string.Join(", ", programs.Select(p => p.ServedWorkers))}, available tasks {string.Join(", ", programs.Select(p => p.AvailableTasks))}."));
        }

        long end = Stopwatch.GetTimestamp();
        ThreadTime[] threads = ThreadTime.Since(threads0);
        process.Refresh();
        ProgramStatistics[] statistics = [.. programs.Select(p => p.GetStatistics())];
        var run = new RunResult(
            Stopwatch.GetElapsedTime(start, end).TotalMilliseconds,
            (process.TotalProcessorTime - cpu0).TotalMilliseconds,
            finished.Average(f => Stopwatch.GetElapsedTime(start, f).TotalMilliseconds),
            mps.Timeline.Recorded - moves0,
            mps.DemandRepartitions - demand0,
            mps.Repartitions - decisions0,
            statistics.Sum(s => s.BusyTime.TotalMilliseconds),
            statistics.Sum(s => s.IdleTime.TotalMilliseconds),
            programs.Sum(p => p.Compensations),
            [.. threads.Where(t => t.Name.StartsWith(WorkerComm, StringComparison.Ordinal))],
            threads.Where(t => t.Name.StartsWith(RepartitionerComm, StringComparison.Ordinal)).Sum(t => t.OnCpuMs));
        if (mps.Timeline.Dropped > 0)
        {
            throw new InvalidOperationException($"The timeline dropped {mps.Timeline.Dropped} moves; the move count would be wrong.");
        }

        for (int i = 0; i < k; i++)
        {
            workload.Verify(i, units);
            mps.RemoveProgram(programs[i]);
        }

        return run;
    }

    // A thread's time on a processor and runnable but waiting for one (Linux: /proc/self/task/TID/schedstat, in ns), per
    // thread id; what shows how the kernel shared the processors with other processes.
    private sealed record ThreadTime(string Name, double OnCpuMs, double WaitingMs)
    {
        public static Dictionary<int, ThreadTime> Read()
        {
            var threads = new Dictionary<int, ThreadTime>();
            const string tasks = "/proc/self/task";
            if (!Directory.Exists(tasks))
            {
                return threads;
            }

            foreach (string dir in Directory.GetDirectories(tasks))
            {
                try
                {
                    string[] times = File.ReadAllText(Path.Combine(dir, "schedstat")).Split(' ');
                    threads[int.Parse(Path.GetFileName(dir), CultureInfo.InvariantCulture)] = new ThreadTime(
                        File.ReadAllText(Path.Combine(dir, "comm")).TrimEnd('\n'),
                        long.Parse(times[0], CultureInfo.InvariantCulture) / 1e6,
                        long.Parse(times[1], CultureInfo.InvariantCulture) / 1e6);
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
                {
                    // The thread ended meanwhile, or no scheduler statistics here: left out.
                }
            }

            return threads;
        }

        // Each thread alive now, its times since before (a thread started since: all its times).
        public static ThreadTime[] Since(Dictionary<int, ThreadTime> before)
            => [.. Read().Select(t => before.TryGetValue(t.Key, out ThreadTime? b)
                ? t.Value with { OnCpuMs = t.Value.OnCpuMs - b.OnCpuMs, WaitingMs = t.Value.WaitingMs - b.WaitingMs }
                : t.Value)];
    }

    // The 1, 5 and 15 minute load averages (Linux), or "n/a".
    private static string LoadAverage()
    {
        const string path = "/proc/loadavg";
        return File.Exists(path) ? string.Join(' ', File.ReadAllText(path).Split(' ').Take(3)) : "n/a";
    }

    // BusyMs, IdleMs: the programs' workers' time in tasks and without a task (ProgramStatistics), summed.
    // Workers: each worker thread's time on a processor and runnable but waiting for one (Linux; empty elsewhere).
    private sealed record RunResult(double ElapsedMs, double CpuMs, double MeanProgramMs, long Moves, long DemandDecisions, long Decisions, double BusyMs, double IdleMs, long Compensations, ThreadTime[] Workers, double RepartitionerCpuMs)
    {
        public double MovesPerSecond => Moves / (ElapsedMs / 1000);

        public double DemandPerSecond => DemandDecisions / (ElapsedMs / 1000);

        // The process's CPU time over the completion time: how many cores it got (at most the workers, plus a little
        // for the repartitioner and the runtime); below the workers on a loaded machine.
        public double CoresUsed => CpuMs / ElapsedMs;

        // The part of the run the workers spent runnable but waiting for a processor (other processes had it): 0 on a
        // quiet machine; NaN without per-thread statistics.
        // The repartitioner thread's part of the process's CPU time (Linux).
        public double RepartitionerShare => RepartitionerCpuMs / CpuMs;

        public double WorkersWaiting => Workers.Length == 0 ? double.NaN : Workers.Sum(w => w.WaitingMs) / (Workers.Length * ElapsedMs);
    }

    private sealed class CaseResult(string name, int rounds)
    {
        public string Name { get; } = name;

        public RunResult[] On { get; } = new RunResult[rounds];

        public RunResult[] Off { get; } = new RunResult[rounds];

        public int Workers { get; set; }

        public bool Pinned { get; set; }

        public void WriteSummary()
        {
            double[] time = [.. On.Zip(Off, (a, b) => a.ElapsedMs / b.ElapsedMs).Order()];
            double[] cpu = [.. On.Zip(Off, (a, b) => a.CpuMs / b.CpuMs).Order()];
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  {Name,-14} {Median(time),6:0.000} [{time[0]:0.000}, {time[^1]:0.000}]                {Median(cpu),6:0.000} [{cpu[0]:0.000}, {cpu[^1]:0.000}]      {Median(On, r => r.ElapsedMs),7:0} / {Median(Off, r => r.ElapsedMs),-7:0}       {Median(On, r => r.CoresUsed),4:0.00} / {Median(Off, r => r.CoresUsed),-4:0.00}             {Median(On, r => r.WorkersWaiting),4:0%} / {Median(Off, r => r.WorkersWaiting),-4:0%}        {Median(On, r => r.MovesPerSecond),7:0} / {Median(Off, r => r.MovesPerSecond),-7:0}    {Median(On, r => r.DemandPerSecond),7:0} / {Median(Off, r => r.DemandPerSecond),-7:0}        {Median(On, r => r.RepartitionerShare),6:0.0%} / {Median(Off, r => r.RepartitionerShare),-6:0.0%}"));
        }

        public void WriteRaw()
        {
            for (int round = 0; round < On.Length; round++)
            {
                Write(round, "on", On[round]);
                Write(round, "off", Off[round]);
            }

            void Write(int round, string configuration, RunResult r) => Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  {Name,-14} {round,3} {configuration,-3} {r.ElapsedMs,9:0.0} {r.CpuMs,9:0.0} {r.MeanProgramMs,9:0.0} {r.Moves,7} {r.DemandDecisions,7} {r.Decisions,7} {r.BusyMs,9:0.0} {r.IdleMs,9:0.0} {r.Compensations,4}   {string.Join(" ", r.Workers.Select(w => $"{w.OnCpuMs:0}/{w.WaitingMs:0}")),-24} {r.RepartitionerCpuMs,6:0.0}"));
        }

        private static double Median(double[] sorted) => HandOverLatency.Percentile(sorted, 0.5);

        private static double Median(RunResult[] runs, Func<RunResult, double> value) => Median([.. runs.Select(value).Order()]);
    }

    // A program's share of a fixed amount of work, and the check of what it computed.
    private abstract class Workload
    {
        public abstract string Name { get; }

        public abstract string Unit { get; }

        // The work shared by the K programs, in units (loops, sorts).
        public abstract int TotalUnits { get; }

        public int UnitsPerProgram(int k) => Math.Max(1, (int)Math.Round((double)TotalUnits / k));

        // Runs inside one of program's own tasks; its awaits continue on the program's scheduler.
        public abstract Task RunProgramAsync(ProgramHandle program, int index, int units);

        public abstract void Verify(int index, int units);
    }

    private sealed class LoopWorkload(int items, int chunk, int totalLoops) : Workload
    {
        private readonly long[] _sums = new long[ProgramCounts.Max()];
        private readonly long _loopSum = Enumerable.Range(0, items).Sum(i => LoopMoveLatency.Item(i));

        public override string Name => "loops";

        public override string Unit => "loops";

        public override int TotalUnits => totalLoops;

        public override async Task RunProgramAsync(ProgramHandle program, int index, int units)
        {
            _sums[index] = 0;
            var options = new ChunkedLoopOptions { ChunkSize = chunk };
            for (int loop = 0; loop < units; loop++)
            {
                await program.ParallelForAsync(0, items, (from, to) =>
                {
                    long sum = 0;
                    for (int i = from; i < to; i++)
                    {
                        sum += LoopMoveLatency.Item(i);
                    }

                    Interlocked.Add(ref _sums[index], sum);
                }, options);
            }
        }

        public override void Verify(int index, int units)
        {
            if (_sums[index] != _loopSum * units)
            {
                throw new InvalidOperationException($"loops: program {index} summed {_sums[index]}, expected {_loopSum * units}.");
            }
        }
    }

    private sealed class SortWorkload(int totalSorts) : Workload
    {
        // One instance per program (an instance runs one sort at a time); the input is made once and reused.
        private readonly IDivConSample[] _sorts = [.. Enumerable.Range(0, ProgramCounts.Max()).Select(_ =>
        {
            IDivConSample sort = SampleCatalog.Create(MergeSort.ProgramName, ProblemSize.Small, settings: new SampleSettings { Cores = 2 });
            sort.Initialize();
            return sort;
        })];

        public override string Name => "mergesort";

        public override string Unit => "sorts";

        public override int TotalUnits => totalSorts;

        public override async Task RunProgramAsync(ProgramHandle program, int index, int units)
        {
            for (int run = 0; run < units; run++)
            {
                await _sorts[index].RunParallelAsync(program.Scheduler).ConfigureAwait(false);
            }
        }

        public override void Verify(int index, int units) => _sorts[index].Verify();
    }
}
