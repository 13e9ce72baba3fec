using System.Diagnostics;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Reporting;

namespace DivCon.Tests.Cli;

/// <summary>
/// A real <c>divcon cyclic</c> run whose multiprogram phases are limited by wall time: a process stalled through most of
/// a phase (seen on the loaded 2-core CI machine, as in SchemeArrangementRunTests' rotation test: a 3 s phase whose
/// window closed 17.4 s after it began) leaves a program with no completed run, however correct the schedulers. Such
/// an attempt is not counted and the run is made again, at most 3 times: an attempt counts when every program recorded
/// a run in every phase (the assertions then check it as before), or when nothing stalled (then a program without a
/// run is the schedulers' fault and the assertions fail on it as before). Only an attempt that both lacks a run and
/// saw a stall is run again.
/// </summary>
internal static class StalledPhaseRetry
{
    /// <summary>
    /// The longest late wake-up of a thread sleeping 10 ms at a time in this process that counts as a stall: a sixth of
    /// the 3 s phases the callers use. A program whose run takes a tenth of a second on its share of the cores still
    /// completes runs in a phase that lost this much; one that records none with no such gap anywhere in the attempt
    /// was starved by the schedulers, not by the machine.
    /// </summary>
    public static readonly TimeSpan Stall = TimeSpan.FromMilliseconds(500);

    /// <summary>
    /// Runs <paramref name="run"/> (the CLI, writing <c>cyclic.json</c> to <paramref name="outDir"/>) until an attempt
    /// counts (the type's summary), at most 3 times, and returns that attempt; fails when all 3 were stalled.
    /// </summary>
    public static async Task<(int Code, string Out, string Err)> RunAsync(string outDir, Func<Task<(int Code, string Out, string Err)>> run)
    {
        var stalled = new List<string>();
        for (int attempt = 1; attempt <= 3; attempt++)
        {
            if (Directory.Exists(outDir))
            {
                Directory.Delete(outDir, recursive: true);
            }

            var probe = new StallProbe();
            (int Code, string Out, string Err) result;
            try
            {
                result = await run();
            }
            finally
            {
                probe.Stop();
            }

            string? missing = result.Code == 0 ? ProgramsWithoutRuns(outDir) : null;
            if (missing is null || probe.LongestGap < Stall)
            {
                return result;
            }

            stalled.Add($"attempt {attempt}: no run for {missing}, longest stall {probe.LongestGap.TotalSeconds:F1} s");
        }

        Assert.Fail("Every attempt of 3 was stalled and left a program without a run: " + string.Join("; ", stalled));
        return default;
    }

    // "scheme/program (invocation n)" for every program without a recorded run in some phase; null when every program has
    // runs everywhere, or when there is no readable result (the caller's assertions say what is wrong then).
    private static string? ProgramsWithoutRuns(string outDir)
    {
        string file = Path.Combine(outDir, "cyclic.json");
        if (!File.Exists(file))
        {
            return null;
        }

        CyclicResult result = ResultKinds.Cyclic.Read(File.ReadAllText(file));
        string[] missing = [.. result.Invocations.SelectMany(i => i.Schemes.SelectMany(s => s.Programs
            .Select((p, k) => (p, k))
            .Where(x => x.p.Seconds.Count == 0)
            .Select(x => $"{s.Scheme}/{i.Programs[x.k].Program} (invocation {i.Invocation})")))];
        return missing.Length == 0 ? null : string.Join(", ", missing);
    }

    // A background thread that sleeps 10 ms at a time and keeps the longest time between two wake-ups beyond that: how long
    // this process (and, on a machine stalled as a whole, the child processes beside it) went without running.
    private sealed class StallProbe
    {
        private readonly Thread _thread;

        // Written by the test's thread (Stop), read by the probe between sleeps.
        private volatile bool _stopping;

        // Written by the probe only, read by the test's thread after Stop has joined it (Interlocked: a 64-bit value).
        private long _longestGapTicks;

        public StallProbe()
        {
            _thread = new Thread(Run) { IsBackground = true, Name = "stall probe" };
            _thread.Start();
        }

        public TimeSpan LongestGap => Stopwatch.GetElapsedTime(0, Interlocked.Read(ref _longestGapTicks));

        public void Stop()
        {
            _stopping = true;
            Assert.True(_thread.Join(TimeSpan.FromSeconds(60)), "The stall probe did not stop.");
        }

        private void Run()
        {
            long last = Stopwatch.GetTimestamp();
            while (!_stopping)
            {
                Thread.Sleep(10);
                long now = Stopwatch.GetTimestamp();
                long gap = now - last - (Stopwatch.Frequency / 100);
                if (gap > Interlocked.Read(ref _longestGapTicks))
                {
                    Interlocked.Exchange(ref _longestGapTicks, gap);
                }

                last = now;
            }
        }
    }
}
