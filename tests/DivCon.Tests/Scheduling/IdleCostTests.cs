using System.Diagnostics;
using DivCon.Scheduling;

using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Scheduling;

[CollectionDefinition(nameof(NotParallel), DisableParallelization = true)]
public sealed class NotParallel
{
}

/// <summary>
/// Idle workers cost nothing. Measured on the workers' own threads (Linux: /proc/self/task/*/stat), so other tests
/// running in the same process cannot disturb it; also run alone (not in parallel with other test classes).
/// </summary>
[Collection(nameof(NotParallel))]
public sealed class IdleCostTests
{
    [Fact]
    public void An_idle_two_worker_scheduler_uses_under_five_percent_of_a_core()
    {
        string name = "idle" + Environment.TickCount64 % 100_000;
        var s = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { WorkerCount = 2, ThreadName = name });
        using var sDisposal = BoundedDisposal.Of(s);

        // Work first, so the workers go through their spin-then-park path rather than starting parked.
        for (int round = 0; round < 5; round++)
        {
            Assert.True(Task.WaitAll(
                Enumerable.Range(0, 100).Select(_ => Task.Factory.StartNew(() => Thread.SpinWait(100), CancellationToken.None, TaskCreationOptions.None, s)).ToArray(),
                TimeSpan.FromSeconds(30)));
        }

        Thread.Sleep(100);
        TimeSpan window = TimeSpan.FromSeconds(1);
        if (OperatingSystem.IsLinux())
        {
            TimeSpan before = WorkerCpuTime(name);
            var sw = Stopwatch.StartNew();
            Thread.Sleep(window);
            TimeSpan used = WorkerCpuTime(name) - before;
            double share = used / sw.Elapsed;
            Assert.True(share < 0.05, $"The idle workers used {used.TotalMilliseconds} ms of CPU over {sw.Elapsed.TotalMilliseconds} ms ({share:P1}).");
        }
        else
        {
            TimeSpan before = Process.GetCurrentProcess().TotalProcessorTime;
            var sw = Stopwatch.StartNew();
            Thread.Sleep(window);
            TimeSpan used = Process.GetCurrentProcess().TotalProcessorTime - before;
            Assert.True(used / sw.Elapsed < 0.05, $"The process used {used.TotalMilliseconds} ms of CPU over {sw.Elapsed.TotalMilliseconds} ms.");
        }
    }

    /// <summary>utime + stime of this process's threads whose name starts with <paramref name="prefix"/>.</summary>
    private static TimeSpan WorkerCpuTime(string prefix)
    {
        long ticks = 0;
        int found = 0;
        foreach (string task in Directory.GetDirectories("/proc/self/task"))
        {
            string comm;
            string stat;
            try
            {
                comm = File.ReadAllText(Path.Combine(task, "comm")).Trim();
                stat = File.ReadAllText(Path.Combine(task, "stat"));
            }
            catch (IOException)
            {
                continue; // the thread exited meanwhile
            }

            if (!comm.StartsWith(prefix, StringComparison.Ordinal))
            {
                continue;
            }

            // Fields after the ")" that closes the name: state is field 3, utime 14, stime 15.
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            ticks += long.Parse(fields[11], System.Globalization.CultureInfo.InvariantCulture) + long.Parse(fields[12], System.Globalization.CultureInfo.InvariantCulture);
            found++;
        }

        Assert.Equal(2, found);

        // Clock ticks per second (USER_HZ) is 100 on Linux for every mainstream architecture.
        return TimeSpan.FromSeconds(ticks / 100.0);
    }
}
