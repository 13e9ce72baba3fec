using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text.Json;
using DivCon.Scheduling;

namespace DivCon.Tests.Affinity;

public sealed class ThreadAffinityTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    [Fact]
    public void ValidateProcessors_ValidSet_IsReturnedInTheGivenOrder()
    {
        Assert.Equal([1, 0], ThreadAffinity.ValidateProcessors([1, 0], "ids", [0, 1]));
    }

    [Theory]
    [InlineData(new int[0], "The processor set is empty; give at least one processor. Allowed: 0-1.")]
    [InlineData(new[] { 7 }, "processor 7 is not one this process may use; allowed: 0-1")]
    [InlineData(new[] { 0, 0 }, "processor 0 is given more than once; allowed: 0-1")]
    [InlineData(new[] { -1 }, "processor -1 is negative; allowed: 0-1")]
    [InlineData(new[] { 1, 7, 1, -3 }, "{1,7,1,-3}: processor 7 is not one this process may use; processor 1 is given more than once; processor -3 is negative; allowed: 0-1.")]
    public void ValidateProcessors_BadSet_NamesTheProblemsAndTheAllowedProcessors(int[] ids, string expected)
    {
        var e = Assert.Throws<ArgumentException>(() => ThreadAffinity.ValidateProcessors(ids, "processorIds", [0, 1]));

        Assert.Contains(expected, e.Message, StringComparison.Ordinal);
        Assert.Equal("processorIds", e.ParamName);
    }

    [Fact]
    public void ValidateProcessors_AgainstTheRealMask_RejectsAProcessorOutsideIt()
    {
        IReadOnlyList<int> allowed = ThreadAffinity.GetProcessAffinity();
        int outside = allowed.Max() + 1;

        var e = Assert.Throws<ArgumentException>(() => ThreadAffinity.ValidateProcessors([outside], "ids"));

        Assert.Contains($"processor {outside} is not one this process may use; allowed: {CpuList.Format(allowed)}.", e.Message, StringComparison.Ordinal);
        Assert.Equal(allowed, ThreadAffinity.ValidateProcessors(allowed, "ids"));
        Assert.Throws<ArgumentNullException>(() => ThreadAffinity.ValidateProcessors(null!, "ids"));
    }

    [Theory]
    [InlineData(new[] { 0 }, 16)]
    [InlineData(new[] { 0, 63, 64, 1023 }, 16)]
    [InlineData(new[] { 5, 1024 }, 17)]
    [InlineData(new[] { 1500, 2 }, 24)]
    public void LinuxMask_SetsBitNOfWordNOver64_AndReadsBackAscending(int[] ids, int expectedWords)
    {
        ulong[] mask = ThreadAffinity.Linux.ToMask(ids);

        Assert.Equal(expectedWords, mask.Length);
        Assert.Equal(ids.Length, mask.Sum(w => System.Numerics.BitOperations.PopCount(w)));
        Assert.All(ids, id => Assert.NotEqual(0UL, mask[id / 64] & (1UL << (id % 64))));
        Assert.Equal(ids.Order(), ThreadAffinity.Linux.ToProcessorIds(mask));
    }

    [Fact]
    public void GetProcessAffinity_IsAscendingDistinctAndNonEmpty()
    {
        IReadOnlyList<int> allowed = ThreadAffinity.GetProcessAffinity();

        Assert.NotEmpty(allowed);
        Assert.Equal(allowed.Distinct().Order(), allowed);
        Assert.True(allowed[0] >= 0);
    }

    [Fact]
    public void GetProcessAffinity_OnLinux_MatchesTheKernelsReportForTheProcess()
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        // An independent source: /proc/<pid>/status, whose Cpus_allowed_list is the main thread's mask.
        string line = File.ReadLines($"/proc/{Environment.ProcessId}/status").Single(l => l.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal));

        Assert.Equal(CpuList.Parse(line["Cpus_allowed_list:".Length..]), ThreadAffinity.GetProcessAffinity());
    }

    [Fact]
    public void PinningAFreshThreadToEachAllowedProcessor_GivesExactlyThatProcessor_AndLeavesTheProcessMaskAlone()
    {
        if (!ThreadAffinity.IsSupported)
        {
            Assert.Throws<PlatformNotSupportedException>(() => ThreadAffinity.PinCurrentThread(0));
            return;
        }

        IReadOnlyList<int> before = ThreadAffinity.GetProcessAffinity();
        foreach (int processor in before)
        {
            PinnedThreadReport report = RunOnDedicatedThread(() =>
            {
                ThreadAffinity.PinCurrentThread(processor);
                return PinnedThreadReport.Capture();
            });

            Assert.Equal([processor], report.ThreadAffinity);
            // The pin is per thread: the process mask read from the pinned thread is still the whole mask.
            Assert.Equal(before, report.ProcessAffinity);
            if (OperatingSystem.IsLinux())
            {
                // sched_setaffinity migrates the calling thread before returning.
                Assert.Equal(processor, report.RunningOn);
                // The kernel's own view of this thread (/proc/self/task/TID/status) agrees.
                Assert.Equal([processor], report.KernelThreadAffinity);
            }
        }

        Assert.Equal(before, ThreadAffinity.GetProcessAffinity());
    }

    [Fact]
    public void SetCurrentThreadAffinity_ToTheProcessMask_UndoesAPin()
    {
        if (!ThreadAffinity.IsSupported)
        {
            return;
        }

        IReadOnlyList<int> all = ThreadAffinity.GetProcessAffinity();
        (IReadOnlyList<int> pinned, IReadOnlyList<int> unpinned) = RunOnDedicatedThread(() =>
        {
            ThreadAffinity.PinCurrentThread(all[^1]);
            IReadOnlyList<int> p = ThreadAffinity.GetCurrentThreadAffinity();
            ThreadAffinity.SetCurrentThreadAffinity(all);
            return (p, ThreadAffinity.GetCurrentThreadAffinity());
        });

        Assert.Equal([all[^1]], pinned);
        Assert.Equal(all, unpinned);
    }

    [Fact]
    public void PinningToAProcessorOutsideTheMask_ThrowsAndLeavesTheThreadAsItWas()
    {
        if (!ThreadAffinity.IsSupported)
        {
            return;
        }

        IReadOnlyList<int> all = ThreadAffinity.GetProcessAffinity();
        int outside = all.Max() + 1;
        (Exception? error, IReadOnlyList<int> after) = RunOnDedicatedThread(() =>
        {
            Exception? caught = Record.Exception(() => ThreadAffinity.PinCurrentThread(outside));
            return (caught, ThreadAffinity.GetCurrentThreadAffinity());
        });

        var e = Assert.IsType<ArgumentException>(error);
        Assert.Equal("processorId", e.ParamName);
        Assert.Contains($"allowed: {CpuList.Format(all)}", e.Message, StringComparison.Ordinal);
        Assert.Equal(all, after);
    }

    [Fact]
    public async Task PinningAThreadPoolThread_IsRefused()
    {
        if (!ThreadAffinity.IsSupported)
        {
            return;
        }

        IReadOnlyList<int> all = ThreadAffinity.GetProcessAffinity();
        (bool onPool, Exception? error, IReadOnlyList<int> after) = await Task.Run(() =>
            (Thread.CurrentThread.IsThreadPoolThread,
             Record.Exception(() => ThreadAffinity.PinCurrentThread(all[0])),
             ThreadAffinity.GetCurrentThreadAffinity())).WaitAsync(Timeout);

        Assert.True(onPool);
        var e = Assert.IsType<InvalidOperationException>(error);
        Assert.Contains("dedicated thread", e.Message, StringComparison.Ordinal);
        Assert.Equal(all, after);
    }

    [Fact]
    public void ThreadStartedByAPinnedThread_StartsWithTheProcessMask()
    {
        // The runtime resets a new thread to the process mask, so a worker must pin itself inside its own body.
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        IReadOnlyList<int> all = ThreadAffinity.GetProcessAffinity();
        IReadOnlyList<int> child = RunOnDedicatedThread(() =>
        {
            ThreadAffinity.PinCurrentThread(all[0]);
            return RunOnDedicatedThread(ThreadAffinity.GetCurrentThreadAffinity);
        });

        Assert.Equal(all, child);
    }

    [Fact]
    public void ChildProcessStartedFromAPinnedThread_ReportsOnlyThatProcessorAsItsProcessMask()
    {
        // What `taskset -c N divcon …` does: the child inherits the starting thread's mask as its process mask. The child
        // is the divcon CLI (copied next to the tests), which reads its mask with GetProcessAffinity.
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        int processor = ThreadAffinity.GetProcessAffinity()[^1];
        string cli = Path.Combine(AppContext.BaseDirectory, "DivCon.Cli.dll");
        Assert.True(File.Exists(cli), $"{cli} should be copied next to the test assembly.");

        (int exitCode, string output, string error) = RunOnDedicatedThread(() =>
        {
            ThreadAffinity.PinCurrentThread(processor);
            var start = new ProcessStartInfo(DotnetHost())
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            };
            start.ArgumentList.Add(cli);
            start.ArgumentList.Add("topology");
            start.ArgumentList.Add("--json");
            using var process = Process.Start(start)!;
            Task<string> stdout = process.StandardOutput.ReadToEndAsync();
            Task<string> stderr = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit(Timeout))
            {
                process.Kill(entireProcessTree: true);
                throw new TimeoutException($"divcon topology did not finish within {Timeout}.");
            }

            return (process.ExitCode, stdout.Result, stderr.Result);
        });

        Assert.True(exitCode == 0, $"exit code {exitCode}: {error}");
        using var json = JsonDocument.Parse(output);
        Assert.Equal([processor], json.RootElement.GetProperty("processors").EnumerateArray().Select(e => e.GetInt32()));
    }

    [Fact]
    public void OffLinuxAndWindows_PinningIsNotSupported()
    {
        if (ThreadAffinity.IsSupported)
        {
            Assert.True(OperatingSystem.IsLinux() || OperatingSystem.IsWindows());
            return;
        }

        var e = Assert.Throws<PlatformNotSupportedException>(() => ThreadAffinity.PinCurrentThread(0));
        Assert.Contains("Linux and Windows", e.Message, StringComparison.Ordinal);
        Assert.Equal(Enumerable.Range(0, Environment.ProcessorCount), ThreadAffinity.GetProcessAffinity());
    }

    /// <summary>The dotnet host running these tests (so the child uses the same runtime), or "dotnet" from PATH.</summary>
    private static string DotnetHost()
    {
        string? path = Environment.ProcessPath;
        if (path is not null && Path.GetFileNameWithoutExtension(path) == "dotnet")
        {
            return path;
        }

        string root = Path.GetFullPath(Path.Combine(RuntimeEnvironment.GetRuntimeDirectory(), "..", "..", ".."));
        string candidate = Path.Combine(root, OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet");
        return File.Exists(candidate) ? candidate : "dotnet";
    }

    /// <summary>
    /// Runs <paramref name="body"/> on a new dedicated thread (never a pool thread: a pin would outlive the test) and
    /// returns its result, failing instead of hanging if it does not finish in time.
    /// </summary>
    private static T RunOnDedicatedThread<T>(Func<T> body)
    {
        T result = default!;
        Exception? error = null;
        var thread = new Thread(() =>
        {
            try
            {
                result = body();
            }
            catch (Exception e)
            {
                error = e;
            }
        })
        {
            IsBackground = true,
            Name = "affinity test",
        };
        thread.Start();
        Assert.True(thread.Join(Timeout), $"The dedicated thread did not finish within {Timeout}.");
        if (error is not null)
        {
            throw new InvalidOperationException("The dedicated thread failed.", error);
        }

        return result;
    }

    private sealed record PinnedThreadReport(
        IReadOnlyList<int> ThreadAffinity,
        IReadOnlyList<int> ProcessAffinity,
        int RunningOn,
        IReadOnlyList<int> KernelThreadAffinity)
    {
        public static PinnedThreadReport Capture()
        {
            if (!OperatingSystem.IsLinux())
            {
                return new(DivCon.Scheduling.ThreadAffinity.GetCurrentThreadAffinity(), DivCon.Scheduling.ThreadAffinity.GetProcessAffinity(), -1, []);
            }

            int runningOn = DivCon.Scheduling.ThreadAffinity.Linux.GetCurrentProcessor();
            int tid = DivCon.Scheduling.ThreadAffinity.Linux.GetCurrentThreadId();
            string line = File.ReadLines($"/proc/self/task/{tid}/status").Single(l => l.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal));
            return new(
                DivCon.Scheduling.ThreadAffinity.GetCurrentThreadAffinity(),
                DivCon.Scheduling.ThreadAffinity.GetProcessAffinity(),
                runningOn,
                CpuList.Parse(line["Cpus_allowed_list:".Length..]));
        }
    }
}
