using System.Diagnostics;
using System.Globalization;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;

namespace DivCon.Benchmarks.Multiprogramming;

/// <summary>
/// What an idle scheduler costs: the process's CPU time over a stretch of wall time while a scheduler exists and has
/// nothing to do, as a percentage of one core, after subtracting the same measure of the bare process taken in the same
/// run (the runtime's own timers and GC threads). Cases, one after the other, each after 8 s of settling: the
/// bare process, an idle <see cref="WorkStealingTaskScheduler"/>, and an idle <see cref="MultiProgramScheduler"/> with
/// two programs and 100 ms ticks under the default policy and under task availability. Issue 18's goal: under 0.1 % of
/// a core for the MultiProgramScheduler (a tick with nothing to change wakes no worker).
/// </summary>
/// <remarks>Run: <c>dotnet run -c Release --project benchmarks/DivCon.Benchmarks -- idle-cost [--seconds 30]</c> (about 4 × (the seconds + 8 s)).</remarks>
public static class IdleCost
{
    public const string Command = "idle-cost";

    private static readonly TimeSpan SettleTime = TimeSpan.FromSeconds(8);

    public static int Run(string[] args)
    {
        double seconds = 30;
        if (!NumericOption.TryParse(Command, args, new NumericOption("--seconds", "S", 1, v => seconds = v, Integer: false)))
        {
            return 2;
        }

        TimeSpan span = TimeSpan.FromSeconds(seconds);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Idle cost over {seconds:0} s each, {Environment.ProcessorCount} processors; % of one core (process CPU time / wall time)."));
        double bare = Measure(span, () => null);
        Report("bare process (baseline)", bare, bare);
        Report("idle WorkStealingTaskScheduler", Measure(span, () => new WorkStealingTaskScheduler()), bare);
        Report("idle MultiProgramScheduler, 2 programs, 100 ms ticks (work-conserving, the default)", Measure(span, () => Multiprogram(null)), bare);
        Report("idle MultiProgramScheduler, 2 programs, 100 ms ticks (task-availability)", Measure(span, () => Multiprogram(new TaskAvailabilityPolicy())), bare);
        return 0;
    }

    private static MultiProgramScheduler Multiprogram(IPartitioningPolicy? policy)
    {
        var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions { BestEffortPinning = true, Policy = policy });
        mps.AddProgram("a", 2.0);
        mps.AddProgram("b", 1.0);
        return mps;
    }

    private static void Report(string what, double percent, double bare)
        => Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {what,-90} {percent,8:0.000} %   above the bare process: {percent - bare,8:0.000} %"));

    // Percent of one core used by the whole process while the object made by create exists and idles.
    private static double Measure(TimeSpan span, Func<IDisposable?> create)
    {
        using IDisposable? idle = create();
        // Start-up, first decisions, the workers park, and tiered compilation re-JITs the tick's code (a tick path
        // runs 10 times a second, so it is promoted after about 3 s: a one-time ~0.1 s of CPU that is not idle cost).
        Thread.Sleep(SettleTime);
        using var process = Process.GetCurrentProcess();
        process.Refresh();
        TimeSpan cpu0 = process.TotalProcessorTime;
        long wall0 = Stopwatch.GetTimestamp();
        Thread.Sleep(span);
        process.Refresh();
        TimeSpan cpu = process.TotalProcessorTime - cpu0;
        double wall = Stopwatch.GetElapsedTime(wall0).TotalSeconds;
        return 100 * cpu.TotalSeconds / wall;
    }
}
