using DivCon.Harness.Cyclic;

namespace DivCon.Tests.Harness;

public sealed class CyclicProtocolTests
{
    private static readonly TimeSpan s_grace = TimeSpan.FromSeconds(30);

    [Fact]
    public void Isolated_RecordsEachRunsExactDuration()
    {
        var clock = new VirtualTime();
        var machine = new SyntheticMachine(clock);
        var program = machine.Program("a", active => active == 1 ? 1.5 : 99);

        var durations = clock.Run(() => CyclicProtocol.RunIsolatedAsync(program, 5, clock, TimeSpan.FromMinutes(1)));

        Assert.Equal([1.5, 1.5, 1.5, 1.5, 1.5], durations);
        Assert.Equal(7.5, clock.NowSeconds, 9);
        Assert.Equal(1, machine.MaxActive);
    }

    [Fact]
    public void Multiprogram_RestartsAtOnce_AndDiscardsRunsPastTheLimit()
    {
        // a: 3 s per run when co-running; b: 4.5 s. Limit 20 s.
        // a ends at 3, 6, …, 18 (6 recorded); its 7th run [18, 21) is still going at 20: discarded.
        // b ends at 4.5, 9, 13.5, 18 (4 recorded); its 5th run [18, 22.5) is discarded.
        var clock = new VirtualTime();
        var machine = new SyntheticMachine(clock);
        PhaseProgram[] programs = [machine.Program("a", n => n == 1 ? 1 : 3), machine.Program("b", n => n == 1 ? 2 : 4.5)];
        machine.CoRunning = 2;

        PhaseResult result = clock.Run(() => CyclicProtocol.RunMultiprogramAsync(programs, TimeSpan.FromSeconds(20), clock, s_grace));

        Assert.Equal(new double[] { 3, 3, 3, 3, 3, 3 }, result.ProgramRuns()[0].Seconds);
        Assert.Equal(new double[] { 4.5, 4.5, 4.5, 4.5 }, result.ProgramRuns()[1].Seconds);
        Assert.Equal(1, result.ProgramRuns()[0].Discarded);
        Assert.Equal(1, result.ProgramRuns()[1].Discarded);
        Assert.Equal(2, machine.MaxActive);

        // Restarted at once: each run starts exactly when the previous one of the same program ended.
        for (int p = 0; p < 2; p++)
        {
            var runs = result.Runs.Where(r => r.Program == p).OrderBy(r => r.StartSeconds).ToArray();
            Assert.Equal(0, runs[0].StartSeconds, 9);
            for (int k = 1; k < runs.Length; k++)
            {
                Assert.Equal(runs[k - 1].EndSeconds, runs[k].StartSeconds, 9);
            }

            // The discarded run is the last one, it started before the limit and was stopped at the limit.
            Assert.False(runs[^1].Recorded);
            Assert.True(runs[^1].StartSeconds < 20);
            Assert.Equal(20, runs[^1].EndSeconds, 9);
        }

        // The phase ends at the limit: discarded runs were stopped, not waited for.
        Assert.Equal(20, clock.NowSeconds, 9);
    }

    [Fact]
    public void Multiprogram_NttMatchesTheSyntheticSetup()
    {
        // Three programs that are each k times slower when co-running: NTT must come out as exactly k.
        var clock = new VirtualTime();
        var machine = new SyntheticMachine(clock);
        double[] alone = [0.7, 1.1, 2.3];
        double[] slowdown = [2.0, 1.5, 3.0];
        PhaseProgram[] programs = Enumerable.Range(0, 3)
            .Select(i => machine.Program($"p{i}", n => n == 1 ? alone[i] : alone[i] * slowdown[i]))
            .ToArray();

        var sp = programs.Select(p => clock.Run(() => CyclicProtocol.RunIsolatedAsync(p, 5, clock, TimeSpan.FromMinutes(1)))).ToArray();
        machine.CoRunning = 3;
        PhaseResult mp = clock.Run(() => CyclicProtocol.RunMultiprogramAsync(programs, TimeSpan.FromSeconds(60), clock, s_grace));

        for (int i = 0; i < 3; i++)
        {
            double ntt = mp.ProgramRuns()[i].Seconds.Average() / sp[i].Average();
            Assert.Equal(slowdown[i], ntt, 9);
            Assert.Equal((int)Math.Floor(60 / (alone[i] * slowdown[i])), mp.ProgramRuns()[i].Seconds.Count);
        }
    }

    [Fact]
    public void Multiprogram_ProgressReportsRunsSoFar()
    {
        var clock = new VirtualTime();
        var machine = new SyntheticMachine(clock);
        PhaseProgram[] programs = [machine.Program("a", _ => 2), machine.Program("b", _ => 5)];
        var reports = new List<PhaseProgress>();

        clock.Run(() => CyclicProtocol.RunMultiprogramAsync(programs, TimeSpan.FromSeconds(11), clock, s_grace, reports.Add));

        // a ends at 2, 4, 6, 8, 10 and b at 5, 10: seven reports; the last counts 5 and 2.
        Assert.Equal(7, reports.Count);
        Assert.Equal([5, 2], reports[^1].RecordedRuns);
        Assert.All(reports, r => Assert.Equal(11, r.LimitSeconds));
        Assert.Equal(reports.Select(r => r.ElapsedSeconds).Order(), reports.Select(r => r.ElapsedSeconds));
    }

    [Fact]
    public void Multiprogram_ProgramThatThrows_IsReportedByName_AndOthersAreStopped()
    {
        var clock = new VirtualTime();
        var machine = new SyntheticMachine(clock);
        PhaseProgram[] programs =
        [
            machine.Program("steady", _ => 1),
            machine.Program("broken", _ => 2, failOnRun: run => run == 3 ? new InvalidOperationException("bad pivot") : null),
        ];

        var e = Assert.Throws<ProgramRunException>(() =>
            clock.Run(() => CyclicProtocol.RunMultiprogramAsync(programs, TimeSpan.FromSeconds(60), clock, s_grace)));

        Assert.Equal("broken", e.Program);
        Assert.Contains("'broken'", e.Message, StringComparison.Ordinal);
        Assert.Contains("bad pivot", e.Message, StringComparison.Ordinal);
        // The failure happened at 2 + 2 + 1 = 5 s; the phase did not run on to the limit.
        Assert.Equal(5, clock.NowSeconds, 9);
    }

    [Fact]
    public void Multiprogram_ProgramThatThrowsSynchronouslyOnStart_IsReported()
    {
        var clock = new VirtualTime();
        var machine = new SyntheticMachine(clock);
        PhaseProgram[] programs = [machine.Program("ok", _ => 1), new PhaseProgram("eager", _ => throw new ArgumentException("no data"))];

        var e = Assert.Throws<ProgramRunException>(() =>
            clock.Run(() => CyclicProtocol.RunMultiprogramAsync(programs, TimeSpan.FromSeconds(10), clock, s_grace)));

        Assert.Equal("eager", e.Program);
        Assert.Contains("no data", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Multiprogram_ProgramThatIgnoresCancellation_FailsAfterTheGraceInsteadOfHanging()
    {
        var clock = new VirtualTime();
        var machine = new SyntheticMachine(clock);
        PhaseProgram[] programs = [machine.Program("fine", _ => 1), machine.Program("deaf", _ => 1000, ignoreCancellation: true)];

        var e = Assert.Throws<ProgramRunException>(() =>
            clock.Run(() => CyclicProtocol.RunMultiprogramAsync(programs, TimeSpan.FromSeconds(10), clock, TimeSpan.FromSeconds(5))));

        Assert.Equal("deaf", e.Program);
        Assert.Contains("did not stop", e.Message, StringComparison.Ordinal);
        Assert.Equal(15, clock.NowSeconds, 9);
    }

    [Fact]
    public void Isolated_RunThatFaults_IsReported_AndOneThatNeverEnds_TimesOut()
    {
        var clock = new VirtualTime();
        var machine = new SyntheticMachine(clock);
        var broken = machine.Program("broken", _ => 1, failOnRun: run => run == 2 ? new InvalidDataException("checksum") : null);
        var endless = machine.Program("endless", _ => 1e6);

        var e1 = Assert.Throws<ProgramRunException>(() => clock.Run(() => CyclicProtocol.RunIsolatedAsync(broken, 5, clock, TimeSpan.FromMinutes(1))));
        var e2 = Assert.Throws<ProgramRunException>(() => clock.Run(() => CyclicProtocol.RunIsolatedAsync(endless, 5, clock, TimeSpan.FromSeconds(30))));

        Assert.Contains("checksum", e1.Message, StringComparison.Ordinal);
        Assert.Contains("did not finish", e2.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Multiprogram_CallerCancellation_StopsEverything()
    {
        var clock = new VirtualTime();
        var machine = new SyntheticMachine(clock);
        PhaseProgram[] programs = [machine.Program("a", _ => 1), machine.Program("b", _ => 3)];
        using var cts = new CancellationTokenSource();
        int seen = 0;

        Assert.ThrowsAny<OperationCanceledException>(() => clock.Run(() => CyclicProtocol.RunMultiprogramAsync(
            programs, TimeSpan.FromSeconds(100), clock, s_grace, _ =>
            {
                if (++seen == 4)
                {
                    cts.Cancel();
                }
            }, cts.Token)));

        Assert.True(clock.NowSeconds < 100);
    }

    [Fact]
    public void Multiprogram_ProgressCallbackThatThrows_StillStopsEveryRunFirst()
    {
        var clock = new VirtualTime();
        var machine = new SyntheticMachine(clock);
        PhaseProgram[] programs = [machine.Program("a", _ => 1), machine.Program("b", _ => 100)];

        Assert.Throws<IOException>(() => clock.Run(() => CyclicProtocol.RunMultiprogramAsync(
            programs, TimeSpan.FromSeconds(50), clock, s_grace, _ => throw new IOException("stderr closed"))));

        // b's long run was stopped (canceled) before the exception surfaced: time did not run on to 100 s.
        Assert.Equal(1, clock.NowSeconds, 9);
    }

    [Fact]
    public async Task HarnessThread_RunsContinuationsOnOneDedicatedThread()
    {
        var threads = new HashSet<int>();
        int result = await HarnessThread.RunAsync(async () =>
        {
            for (int i = 0; i < 5; i++)
            {
                threads.Add(Environment.CurrentManagedThreadId);
                await Task.Run(() => Thread.Sleep(1)).WaitAsync(TimeSpan.FromSeconds(30));
            }

            threads.Add(Environment.CurrentManagedThreadId);
            return 42;
        }).WaitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(42, result);
        Assert.Single(threads);
        Assert.NotEqual(Environment.CurrentManagedThreadId, threads.Single());
    }

    [Fact]
    public async Task HarnessThread_PropagatesExceptions()
    {
        await Assert.ThrowsAsync<InvalidTimeZoneException>(() =>
            HarnessThread.RunAsync<int>(async () =>
            {
                await Task.Yield();
                throw new InvalidTimeZoneException("x");
            }).WaitAsync(TimeSpan.FromSeconds(60)));
    }
}
