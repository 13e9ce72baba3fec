using System.Diagnostics;
using System.Globalization;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;

namespace DivCon.Benchmarks.Multiprogramming;

/// <summary>
/// How long a move waits on a parallel loop (issue 20, item 0): a batch program holds every worker and runs a loop of
/// ~1 µs iterations lasting about <c>--loop-ms</c>; a request program with a task queued and no worker is then given one
/// worker (a fixed allocation, no ticks), and the latency is the interval from that allocation change to
/// the first instruction of the request's task (as in <see cref="HandOverLatency"/>). Three ways to write the loop,
/// interleaved round by round:
/// <list type="bullet">
/// <item><b>plain</b>: <c>Parallel.For</c> with the program's scheduler, inside a task of the program (ProgramHandle.Run);</item>
/// <item><b>helper-async</b>: <c>await program.ParallelForAsync</c>: every chunk in a task, a worker asked to move leaves
/// between two chunks;</item>
/// <item><b>helper-sync-inside</b>: <c>program.ParallelFor</c> called inside a task of the program: the calling task
/// runs chunks until the range is exhausted (a synchronous call cannot give its thread back), holding that worker until
/// the loop ends; the other workers move between chunks.</item>
/// </list>
/// Prints per case the median with the 10th and 90th percentiles and the largest latency, and the ratio of medians plain /
/// helper-async in the same run. Each loop's result is checked.
/// </summary>
/// <remarks>Run: <c>dotnet run -c Release --project benchmarks/DivCon.Benchmarks -- loop-move-latency [--rounds 30] [--loop-ms 600]</c>.</remarks>
public static class LoopMoveLatency
{
    public const string Command = "loop-move-latency";

    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(60);

    public static int Run(string[] args)
    {
        int rounds = 30;
        int loopMs = 600;
        if (!NumericOption.TryParse(
            Command,
            args,
            new NumericOption("--rounds", "N", 3, v => rounds = (int)v),
            new NumericOption("--loop-ms", "MS", 50, v => loopMs = (int)v)))
        {
            return 2;
        }

        using var bench = new Bench();
        int items = bench.Calibrate(loopMs);
        string[] names = ["plain", "helper-async", "helper-sync-inside"];
        var latencies = names.Select(_ => new double[rounds]).ToArray();
        for (int round = -1; round < rounds; round++)
        {
            for (int c = 0; c < names.Length; c++)
            {
                double us = bench.Round(c, items);
                if (round >= 0)
                {
                    latencies[c][round] = us;
                }
            }
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"Move latency out of a parallel loop of {items} items (~{loopMs} ms on {bench.Workers} workers), allocation change -> the request's task starts; {rounds} interleaved rounds (ms):"));
        for (int c = 0; c < names.Length; c++)
        {
            double[] sorted = [.. latencies[c].Order().Select(us => us / 1000)];
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  {names[c],-20} median {HandOverLatency.Percentile(sorted, 0.5),9:0.000}   p10 {HandOverLatency.Percentile(sorted, 0.1),9:0.000}   p90 {HandOverLatency.Percentile(sorted, 0.9),9:0.000}   max {sorted[^1],9:0.000}   compensating workers {bench.Compensated[c]}"));
        }

        Console.WriteLine($"  rounds whose loop had ended before the move (should be 0; else raise --loop-ms): {bench.EndedEarly}");
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  ratio of medians plain / helper-async {HandOverLatency.Percentile([.. latencies[0].Order()], 0.5) / HandOverLatency.Percentile([.. latencies[1].Order()], 0.5):0.0}"));
        return 0;
    }

    // About a microsecond of integer work; the loop's result is the sum, checked against the sequential one. Also the
    // body of StarvedTriggerCost's loops.
    internal static long Item(int i)
    {
        ulong x = (ulong)i;
        for (int k = 0; k < 300; k++)
        {
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        }

        return (long)(x & 0xFF);
    }

    // The time of one Item on this thread, in ms: the fastest of 5 passes, after tiered compilation has optimised Item.
    internal static double ItemMilliseconds()
    {
        double perItemMs = double.MaxValue;
        long sink = 0;
        for (int pass = 0; pass < 5; pass++)
        {
            long start = Stopwatch.GetTimestamp();
            for (int i = 0; i < 20_000; i++)
            {
                sink += Item(i);
            }

            perItemMs = Math.Min(perItemMs, Stopwatch.GetElapsedTime(start).TotalMilliseconds / 20_000);
            Thread.Sleep(100);
        }

        GC.KeepAlive(sink);
        return perItemMs;
    }

    private sealed class Bench : IDisposable
    {
        private readonly MultiProgramScheduler _mps;
        private readonly ProgramHandle _batch;
        private readonly ProgramHandle _request;
        private readonly FixedAllocationPolicy _allToBatch;
        private readonly FixedAllocationPolicy _oneToRequest;
        private readonly ManualResetEventSlim _ran = new(false);
        private long _ranAt;
        private long _expected;
        private int _expectedFor = -1;

        public Bench()
        {
            _mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
            {
                BestEffortPinning = true,
                // Compensation stays on (the default): with it off, a plain Parallel.For whose non-root replica re-queued
                // itself on the moved worker deadlocks, its root replica waiting for a task no worker serves (README,
                // "Guarantees"). A computing thread is not compensated for, so the latencies are the moves' own.
                RepartitionInterval = Timeout.InfiniteTimeSpan,
            });
            _batch = _mps.AddProgram("batch");
            _request = _mps.AddProgram("request");
            _allToBatch = new FixedAllocationPolicy(new Dictionary<int, int> { [_batch.Id] = _mps.WorkerCount, [_request.Id] = 0 });
            _oneToRequest = new FixedAllocationPolicy(new Dictionary<int, int> { [_batch.Id] = _mps.WorkerCount - 1, [_request.Id] = 1 });
            _mps.Policy = _allToBatch;
        }

        public int Workers => _mps.WorkerCount;

        /// <summary>Rounds whose loop had ended before the allocation changed (their latency is a parked worker's).</summary>
        public int EndedEarly { get; private set; }

        /// <summary>Per case, compensating workers started during its rounds (a blocked wait, not a computing task).</summary>
        public long[] Compensated { get; } = new long[3];

        // Items for a loop of about loopMs on every worker.
        public int Calibrate(int loopMs) => (int)Math.Min(int.MaxValue, loopMs / ItemMilliseconds() * _mps.WorkerCount);

        public double Round(int kind, int items)
        {
            _mps.Policy = _allToBatch;
            long sum = 0;
            void Body(int i) => Interlocked.Add(ref sum, Item(i));
            var options = new ParallelOptions { TaskScheduler = _batch.Scheduler };
            Task loop = kind switch
            {
                0 => _batch.Run(() => Parallel.For(0, items, options, Body)),
                1 => _batch.ParallelForAsync(0, items, Body),
                _ => _batch.Run(() => _batch.ParallelFor(0, items, Body)),
            };

            Thread.Sleep(50); // the loop is running on every worker
            _ran.Reset();
            Task.Factory.StartNew(static s =>
            {
                var self = (Bench)s!;
                Volatile.Write(ref self._ranAt, Stopwatch.GetTimestamp());
                self._ran.Set();
            }, this, CancellationToken.None, TaskCreationOptions.None, _request.Scheduler);
            Thread.Sleep(5);
            long moved = Stopwatch.GetTimestamp();
            _mps.Policy = _oneToRequest;
            if (loop.IsCompleted)
            {
                EndedEarly++;
            }

            long compensations = _request.Compensations + _batch.Compensations;

            if (!_ran.Wait(Bound))
            {
                throw new TimeoutException($"Case {kind}: the request's task did not run within 60 s (loop status {loop.Status}, batch served by {_batch.ServedWorkers}, request by {_request.ServedWorkers}).");
            }

            if (!((IAsyncResult)loop).AsyncWaitHandle.WaitOne(Bound))
            {
                throw new TimeoutException($"Case {kind}: the loop did not finish within 60 s (batch served by {_batch.ServedWorkers}, available {_batch.AvailableTasks}).");
            }

            Compensated[kind] += _request.Compensations + _batch.Compensations - compensations;
            if (loop.IsFaulted || sum != Expected(items))
            {
                throw new InvalidOperationException($"The loop's sum is wrong ({sum}): {loop.Exception}");
            }

            return Stopwatch.GetElapsedTime(moved, Volatile.Read(ref _ranAt)).TotalMicroseconds;
        }

        // The sequential sum, computed once per item count.
        private long Expected(int items)
        {
            if (_expectedFor != items)
            {
                long total = 0;
                for (int i = 0; i < items; i++)
                {
                    total += Item(i);
                }

                (_expected, _expectedFor) = (total, items);
            }

            return _expected;
        }

        public void Dispose()
        {
            _mps.Dispose();
            _ran.Dispose();
        }
    }
}
