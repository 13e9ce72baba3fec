using DivCon.Harness.Cyclic;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Harness;

/// <summary>
/// The protocol with real threads and the real clock: programs complete on pool threads while the harness thread
/// restarts them; every run started is accounted for (recorded or discarded), nothing is left running, and no wait is
/// unbounded.
/// </summary>
public sealed class CyclicProtocolRealTimeTests
{
    [Fact]
    public Task ShortPhase_EveryRunAccountedFor() => RunPhases(phases: 3, programs: 3, limitMs: 150, seed: 1);

    [StressFact]
    [Trait("Category", "Stress")]
    public Task ManyPhases_EveryRunAccountedFor() => RunPhases(phases: 200, programs: 6, limitMs: 100, seed: 2);

    private static async Task RunPhases(int phases, int programs, int limitMs, int seed)
    {
        var random = new Random(seed);
        for (int phase = 0; phase < phases; phase++)
        {
            int[] started = new int[programs];
            int[] finished = new int[programs];
            int[] durationsMs = Enumerable.Range(0, programs).Select(_ => random.Next(1, 30)).ToArray();
            var list = Enumerable.Range(0, programs).Select(i => new PhaseProgram($"p{i}", async ct =>
            {
                Interlocked.Increment(ref started[i]);
                try
                {
                    // Work that completes on a pool thread, like a program on its own scheduler.
                    await Task.Run(() => Thread.SpinWait(1000 * durationsMs[i]), ct).ConfigureAwait(false);
                    await Task.Delay(durationsMs[i], ct).ConfigureAwait(false);
                }
                finally
                {
                    Interlocked.Increment(ref finished[i]);
                }
            })).ToArray();

            PhaseResult result = await HarnessThread.RunAsync(() => CyclicProtocol.RunMultiprogramAsync(
                list, TimeSpan.FromMilliseconds(limitMs), TimeProvider.System, TimeSpan.FromSeconds(20))).WaitAsync(TimeSpan.FromSeconds(60));

            for (int i = 0; i < programs; i++)
            {
                var runs = result.Runs.Where(r => r.Program == i).OrderBy(r => r.StartSeconds).ToArray();
                Assert.Equal(Volatile.Read(ref started[i]), runs.Length);
                Assert.Equal(Volatile.Read(ref started[i]), Volatile.Read(ref finished[i])); // nothing left running
                Assert.True(runs.Count(r => !r.Recorded) <= 1);
                Assert.All(runs.Where(r => r.Recorded), r => Assert.True(r.EndSeconds <= limitMs / 1000.0));
                for (int k = 1; k < runs.Length; k++)
                {
                    Assert.True(runs[k].StartSeconds >= runs[k - 1].EndSeconds); // one run of a program at a time
                }
            }
        }
    }
}
