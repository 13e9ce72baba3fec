using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

public sealed class DeclarativeFactoryTests
{
    [Theory]
    [MemberData(nameof(TestSchedulers.Names), MemberType = typeof(TestSchedulers))]
    public async Task Figure4_3_QuickSortInEightLines_SortsLikeArraySort(string schedulerName)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        int[] source = new int[50_000];
        var random = new Random(43);
        for (int i = 0; i < source.Length; i++)
        {
            source[i] = random.Next(0, 100_000);
        }

        // Figure 4.3, with the ToArray calls its simplified listing leaves out.
        var quickSort = DivConFactory.Create<int[], int[]>(
            taskScheduler: lease.Scheduler,
            shouldSplit: (nums, level) => nums.Length > 1024 && level < 10,
            split: nums => new[] {
                nums.Where(n => n <  nums[0]).ToArray(),
                nums.Where(n => n >= nums[0]).ToArray() },
            executeMuscle: nums => { Array.Sort(nums); return nums; },
            merge: results => results[0].Concat(results[1]).ToArray());

        int[] sorted = await quickSort.RunAsync(source).WaitAsync(SkeletonPrograms.Timeout);

        int[] expected = (int[])source.Clone();
        Array.Sort(expected);
        Assert.Equal(expected, sorted);
    }

    [Fact]
    public async Task LevelAwareOverload_PassesTheRecursionLevelToEveryMuscle()
    {
        var seen = new System.Collections.Concurrent.ConcurrentBag<(string Phase, int Level)>();
        var program = DivConFactory.Create<int, int>(
            TaskScheduler.Default,
            shouldSplit: (depth, level) => level < 3,
            split: (depth, level) =>
            {
                seen.Add(("split", level));
                return [depth + 1, depth + 1];
            },
            executeMuscle: (depth, level) =>
            {
                seen.Add(("execute", level));
                return 1;
            },
            merge: (results, level) =>
            {
                seen.Add(("merge", level));
                return results[0] + results[1];
            });

        int leaves = await program.RunAsync(0).WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal(4, leaves);
        Assert.Equal(4, seen.Count(s => s == ("execute", 3)));
        Assert.Equal(2, seen.Count(s => s == ("split", 2)));
        Assert.Equal(1, seen.Count(s => s == ("merge", 1)));
        Assert.Equal(10, seen.Count); // 3 splits, 4 executes, 3 merges
    }
}
