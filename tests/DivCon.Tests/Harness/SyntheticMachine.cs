using DivCon.Harness.Cyclic;

namespace DivCon.Tests.Harness;

/// <summary>
/// Synthetic programs for protocol tests, on a <see cref="VirtualTime"/> clock: each run takes a duration given by a
/// formula of <see cref="CoRunning"/>, the number of programs the test says share the machine (1 in single-program
/// mode), read when the run starts.
/// </summary>
internal sealed class SyntheticMachine(VirtualTime clock)
{
    private int _active;

    public int MaxActive { get; private set; }

    public int CoRunning { get; set; } = 1;

    public PhaseProgram Program(string name, Func<int, double> secondsWhenCoRunning, Func<int, Exception?>? failOnRun = null, bool ignoreCancellation = false)
    {
        int runCount = 0;
        return new PhaseProgram(name, async ct =>
        {
            int run = ++runCount;
            int active = ++_active;
            int coRunning = CoRunning;
            MaxActive = Math.Max(MaxActive, active);
            try
            {
                if (failOnRun?.Invoke(run) is { } failure)
                {
                    await Task.Delay(TimeSpan.FromSeconds(secondsWhenCoRunning(coRunning) / 2), clock, ct);
                    throw failure;
                }

                await Task.Delay(TimeSpan.FromSeconds(secondsWhenCoRunning(coRunning)), clock, ignoreCancellation ? CancellationToken.None : ct);
            }
            finally
            {
                _active--;
            }
        });
    }
}
