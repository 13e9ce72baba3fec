using DivCon.Skeletons;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Skeletons;

/// <summary>
/// Ordering with a non-commutative merge (concatenation), on every test scheduler, in both modes, with synchronous and
/// asynchronous muscles: random seeded trees (2 to 5 subproblems of random sizes per split, random leaf sizes, random
/// busy work and yields so that subproblems finish in any order). Every run must give 0, 1, …, n − 1 in order.
/// </summary>
public sealed class OrderingTests
{
    [Theory]
    [MemberData(nameof(TestSchedulers.Names), MemberType = typeof(TestSchedulers))]
    public Task Concatenation_KeepsSplitOrder(string schedulerName) => Check(schedulerName, runs: 12, seed: 15);

    [StressFact]
    [Trait("Category", "Stress")]
    public async Task Concatenation_KeepsSplitOrder_Stress()
    {
        foreach (string scheduler in TestSchedulers.All)
        {
            await Check(scheduler, runs: 400, seed: 1015);
        }
    }

    private static async Task Check(string schedulerName, int runs, int seed)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        var random = new Random(seed);
        for (int run = 0; run < runs; run++)
        {
            int n = random.Next(1, 3000);
            int grain = random.Next(1, 64);
            int treeSeed = random.Next();
            DivConExecution mode = run % 2 == 0 ? DivConExecution.Asynchronous : DivConExecution.ForkJoin;
            // Fork-join blocks on an asynchronous muscle, whose continuations run on the thread pool: on the pool's own
            // threads (the default scheduler) that is sync-over-async, slow whenever the pool is short of threads.
            bool asynchronous = run % 4 >= 2 && !(mode == DivConExecution.ForkJoin && lease.Scheduler == TaskScheduler.Default);
            DivConBase<ElementRange, int[]> program = Concatenation(lease.Scheduler, grain, treeSeed, asynchronous);
            program.Execution = mode;

            int[] result = await program.RunAsync(new ElementRange(0, n), CancellationToken.None).WaitAsync(SkeletonPrograms.Timeout);

            Assert.True(
                result.AsSpan().SequenceEqual(Enumerable.Range(0, n).ToArray()),
                $"{schedulerName}, run {run} ({mode}, {(asynchronous ? "asynchronous" : "synchronous")} muscles, n {n}, grain {grain}, tree {treeSeed}): "
                + $"first difference at {result.AsSpan().CommonPrefixLength(Enumerable.Range(0, n).ToArray())} of {result.Length}");
        }
    }

    private static DivConBase<ElementRange, int[]> Concatenation(TaskScheduler scheduler, int grain, int treeSeed, bool asynchronous)
    {
        // Every decision is a function of (tree seed, range), so a run is reproducible from the numbers in the message.
        int Hash(ElementRange range, int salt) => HashCode.Combine(treeSeed, range.Min, range.Max, salt) & int.MaxValue;

        ElementRange[] Split(ElementRange range)
        {
            int parts = Math.Min(range.Length, 2 + (Hash(range, 1) % 4));
            var cuts = new SortedSet<int>();
            var random = new Random(Hash(range, 2));
            while (cuts.Count < parts - 1)
            {
                cuts.Add(random.Next(range.Min + 1, range.Max));
            }

            var result = new ElementRange[parts];
            int start = range.Min;
            int i = 0;
            foreach (int cut in cuts.Append(range.Max))
            {
                result[i++] = new ElementRange(start, cut);
                start = cut;
            }

            return result;
        }

        int[] Leaf(ElementRange range)
        {
            Thread.SpinWait(Hash(range, 3) % 2000);
            return Enumerable.Range(range.Min, range.Length).ToArray();
        }

        int[] Concat(int[][] parts)
        {
            Thread.SpinWait(parts.Length * 50);
            return parts.SelectMany(p => p).ToArray();
        }

        if (!asynchronous)
        {
            return DivConFactory.Create<ElementRange, int[]>(
                scheduler,
                shouldSplit: (range, level) => range.Length > grain,
                split: (range, level) => Split(range),
                executeMuscle: (range, level) => Leaf(range),
                merge: (parts, level) => Concat(parts));
        }

        return DivConFactory.Create<ElementRange, int[]>(
            shouldSplit: (range, context) => range.Length > grain,
            split: async (range, context) =>
            {
                if (Hash(range, 4) % 3 == 0)
                {
                    await Task.Yield();
                }

                return Split(range);
            },
            executeMuscle: async (range, context) =>
            {
                if (Hash(range, 5) % 2 == 0)
                {
                    await Task.Yield();
                }

                return Leaf(range);
            },
            merge: async (parts, context) =>
            {
                if (parts.Length % 2 == 0)
                {
                    await Task.Yield();
                }

                return Concat(parts);
            },
            taskScheduler: scheduler);
    }
}
