using DivCon.Skeletons;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Skeletons;

/// <summary>
/// Many runs of random shapes, each faulting, canceled or clean at a random point, on 1, 2 and 4 workers, in both
/// execution modes: every run completes (a lost report would hang it: the wait has a timeout), with the right
/// outcome, with no muscle in flight.
/// </summary>
public sealed class SkeletonStressTests
{
    [Fact]
    public Task ShortStress_RandomRunsAllCompleteWithTheRightOutcome() => Stress(runs: 60, seed: 1);

    [StressFact]
    [Trait("Category", "Stress")]
    public Task LongStress_RandomRunsAllCompleteWithTheRightOutcome() => Stress(runs: 5_000, seed: 2);

    private static async Task Stress(int runs, int seed)
    {
        var random = new Random(seed);
        string[] schedulers = ["pair1", "pair2", "pair4", "ws1", "ws2", "mps1", "default"];
        for (int run = 0; run < runs; run++)
        {
            using SchedulerLease lease = TestSchedulers.Create(schedulers[run % schedulers.Length]);
            int size = random.Next(1, 20_000);
            int grain = random.Next(1, 200);
            int branching = random.Next(2, 6);
            int mode = random.Next(3); // 0 clean, 1 fault, 2 cancel
            int trigger = random.Next(0, 40);
            using var cts = new CancellationTokenSource();
            var fault = new InvalidDataException($"run {run}");
            var probe = new CallProbe
            {
                OnCall = (phase, range, level, index) =>
                {
                    if (index == trigger && mode == 1)
                    {
                        throw fault;
                    }

                    if (index == trigger && mode == 2)
                    {
                        cts.Cancel();
                    }
                },
            };
            DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(lease.Scheduler, grain, probe, branching);
            program.Execution = (run / schedulers.Length) % 2 == 0 ? DivConExecution.Asynchronous : DivConExecution.ForkJoin;

            Task<long> task = program.RunAsync(new ElementRange(0, size), cts.Token);
            try
            {
                long result = await task.WaitAsync(SkeletonPrograms.Timeout);
                Assert.Equal(SkeletonPrograms.ExpectedSum(size), result);
                // A trigger that fired must have ended the run, except a cancel inside a lone root muscle, whose result stands.
                Assert.True(mode == 0 || probe.Executes <= trigger || (mode == 2 && size <= grain), $"run {run}: completed although its trigger fired");
            }
            catch (InvalidDataException e)
            {
                Assert.Same(fault, e);
            }
            catch (OperationCanceledException)
            {
                Assert.True(task.IsCanceled);
                Assert.Equal(2, mode);
            }

            await FaultAndCancellationTests.AssertNothingLeftRunning(probe, lease);
        }
    }
}
