using System.Diagnostics;
using System.Globalization;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;

namespace DivCon.Benchmarks.Multiprogramming;

/// <summary>
/// How long a worker takes to reach a program's task, timed where it happens: the interval from the action (a task
/// queued, an allocation changed) to the first instruction of the task, both read from <see cref="Stopwatch"/>, so the
/// wake-up of the thread that waits for the result is not part of it (in <see cref="MoveLatencyBenchmarks"/>, which
/// times the waiting thread, it is: with every core busy that thread waits for the OS's next time slice, about 4 ms
/// here). Three cases, interleaved round by round so that a slow stretch of the machine falls on all of them:
/// <list type="bullet">
/// <item><b>wake-up</b> (the baseline): a task queued to an idle standalone <see cref="WorkStealingTaskScheduler"/>, a
/// parked worker runs it;</item>
/// <item><b>move</b>: program B holds no worker and has a task queued; the allocation gives B one worker;</item>
/// <item><b>recall</b>: under the default policy program A's workers are lent to B, whose chains of ~20 µs tasks keep
/// every worker busy; a task queued to A is run by A's worker at its next task boundary.</item>
/// </list>
/// Prints per case the median with the 10th and 90th percentiles, and the median over rounds of move / wake-up and
/// recall / wake-up.
/// </summary>
/// <remarks>Run: <c>dotnet run -c Release --project benchmarks/DivCon.Benchmarks -- hand-over-latency [--rounds 200]</c>.</remarks>
public static class HandOverLatency
{
    public const string Command = "hand-over-latency";

    private static readonly TimeSpan Park = TimeSpan.FromMilliseconds(20);
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(10);

    public static int Run(string[] args)
    {
        int rounds = 200;
        if (!NumericOption.TryParse(Command, args, new NumericOption("--rounds", "N", 5, v => rounds = (int)v)))
        {
            return 2;
        }

        using var cases = new Cases();
        var wake = new double[rounds];
        var move = new double[rounds];
        var recall = new double[rounds];
        for (int round = -3; round < rounds; round++)
        {
            double w = cases.WakeUp(), m = cases.Move(), c = cases.Recall();
            if (round >= 0)
            {
                (wake[round], move[round], recall[round]) = (w, m, c);
            }
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"Hand-over latency, action -> first instruction of the task, {rounds} interleaved rounds, {Environment.ProcessorCount} processors (µs):"));
        Report("wake-up: task queued -> a parked worker of a standalone scheduler runs it (baseline)", wake);
        Report("move: allocation change -> the moved worker runs the new program's task", move);
        Report("recall: task queued to a program whose worker is lent -> that worker runs it", recall);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  median over rounds of move / wake-up {MedianRatio(move, wake):0.00}, recall / wake-up {MedianRatio(recall, wake):0.00}"));
        return 0;
    }

    private static void Report(string what, double[] microseconds)
    {
        double[] sorted = [.. microseconds.Order()];
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  {what,-88} median {Percentile(sorted, 0.5),8:0.0}   p10 {Percentile(sorted, 0.1),8:0.0}   p90 {Percentile(sorted, 0.9),8:0.0}"));
    }

    private static double MedianRatio(double[] a, double[] b) => Percentile([.. a.Zip(b, (x, y) => x / y).Order()], 0.5);

    /// <summary>The <paramref name="q"/> quantile of sorted values, interpolated (also LoopMoveLatency's).</summary>
    internal static double Percentile(double[] sorted, double q)
    {
        double position = q * (sorted.Length - 1);
        int below = (int)Math.Floor(position);
        int above = Math.Min(below + 1, sorted.Length - 1);
        return sorted[below] + ((position - below) * (sorted[above] - sorted[below]));
    }

    private sealed class Cases : IDisposable
    {
        private readonly ManualResetEventSlim _ran = new(false);
        private readonly WorkStealingTaskScheduler _standalone;
        private readonly MultiProgramScheduler _move;
        private readonly ProgramHandle _b;
        private readonly FixedAllocationPolicy _allToA;
        private readonly FixedAllocationPolicy _oneToB;
        private readonly MultiProgramScheduler _lending;
        private readonly ProgramHandle _home;
        private readonly ProgramHandle _borrower;
        private long _ranAt;
        private volatile bool _stopChains;

        public Cases()
        {
            _standalone = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { Processors = ThreadAffinity.GetProcessAffinity(), BestEffortPinning = true });
            _move = new MultiProgramScheduler(new MultiProgramSchedulerOptions { BestEffortPinning = true, RepartitionInterval = Timeout.InfiniteTimeSpan });
            ProgramHandle a = _move.AddProgram("a");
            _b = _move.AddProgram("b");
            int n = _move.WorkerCount;
            _allToA = new FixedAllocationPolicy(new Dictionary<int, int> { [a.Id] = n, [_b.Id] = 0 });
            _oneToB = new FixedAllocationPolicy(new Dictionary<int, int> { [a.Id] = n - 1, [_b.Id] = 1 });

            _lending = new MultiProgramScheduler(new MultiProgramSchedulerOptions
            {
                BestEffortPinning = true,
                RepartitionInterval = Timeout.InfiniteTimeSpan,
                CompensateBlocking = false,
            });
            _home = _lending.AddProgram("home");
            _borrower = _lending.AddProgram("borrower");
            for (int i = 0; i < 2 * _lending.WorkerCount; i++)
            {
                Task.Factory.StartNew(Chain, CancellationToken.None, TaskCreationOptions.None, _borrower.Scheduler);
            }
        }

        public double WakeUp()
        {
            _ran.Reset();
            Thread.Sleep(Park);
            long start = Stopwatch.GetTimestamp();
            Queue(_standalone);
            return Elapsed(start);
        }

        public double Move()
        {
            _move.Policy = _allToA;
            _ran.Reset();
            Thread.Sleep(Park);
            Queue(_b.Scheduler);
            Thread.Sleep(Park); // B's task is queued, no worker serves B, the workers park
            long start = Stopwatch.GetTimestamp();
            _move.Policy = _oneToB;
            return Elapsed(start);
        }

        public double Recall()
        {
            _ran.Reset();
            DateTime deadline = DateTime.UtcNow + Bound;
            while (_lending.GetSnapshot().WorkerServing.Any(id => id != _borrower.Id))
            {
                if (DateTime.UtcNow > deadline)
                {
                    throw new TimeoutException("The home program's workers were not lent to the borrower within 10 s.");
                }

                Thread.Sleep(1);
            }

            long start = Stopwatch.GetTimestamp();
            Queue(_home.Scheduler);
            return Elapsed(start);
        }

        public void Dispose()
        {
            _stopChains = true;
            _standalone.Dispose();
            _move.Dispose();
            _lending.Dispose();
            _ran.Dispose();
        }

        private void Queue(TaskScheduler scheduler) =>
            Task.Factory.StartNew(static s =>
            {
                var self = (Cases)s!;
                Volatile.Write(ref self._ranAt, Stopwatch.GetTimestamp());
                self._ran.Set();
            }, this, CancellationToken.None, TaskCreationOptions.None, scheduler);

        private double Elapsed(long start)
        {
            if (!_ran.Wait(Bound))
            {
                throw new TimeoutException("The task did not run within 10 s.");
            }

            return Stopwatch.GetElapsedTime(start, Volatile.Read(ref _ranAt)).TotalMicroseconds;
        }

        private void Chain()
        {
            long until = Stopwatch.GetTimestamp() + (Stopwatch.Frequency / 50_000); // ~20 µs
            while (Stopwatch.GetTimestamp() < until)
            {
                Thread.SpinWait(10);
            }

            if (!_stopChains)
            {
                Task.Factory.StartNew(Chain, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);
            }
        }
    }
}
