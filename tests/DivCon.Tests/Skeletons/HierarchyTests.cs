using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

public sealed class HierarchyTests
{
    [Fact]
    public void ElementRange_SplitsEvenly_AsInSection4_3()
    {
        Assert.Equal(
            new[] { new ElementRange(0, 25), new ElementRange(25, 50), new ElementRange(50, 75), new ElementRange(75, 100) },
            new ElementRange(0, 100).Split(4));
        Assert.Equal(new[] { new ElementRange(10, 13), new ElementRange(13, 17) }, new ElementRange(10, 17).Split(2));
        Assert.Equal(new[] { new ElementRange(3, 4), new ElementRange(4, 5) }, new ElementRange(3, 5).Split(7));
        Assert.Equal(new[] { new ElementRange(3, 3) }, new ElementRange(3, 3).Split(2));
        Assert.Throws<ArgumentOutOfRangeException>(() => new ElementRange(0, 10).Split(0));
    }

    [Fact]
    public void Figure4_18_GranularityBasedSplitOfSize1000_MakesFourMuscles()
    {
        var leaves = new List<ElementRange>();
        void Recurse(ElementRange range)
        {
            if (range.Length > GranularityRules.Balanced(1000, 4))
            {
                foreach (ElementRange part in range.Split(2))
                {
                    Recurse(part);
                }
            }
            else
            {
                leaves.Add(range);
            }
        }

        Recurse(new ElementRange(0, 1000));
        Assert.Equal(4, leaves.Count);
        Assert.All(leaves, leaf => Assert.Equal(250, leaf.Length));
    }

    [Theory]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(5)]
    public async Task MapReduce_WithAnyBranchingFactor_ReducesEveryElementOnce(int branching)
    {
        var program = new CountingMapReduce(10_007, branching) { Granularity = 100 };

        long result = await program.RunAsync().WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal(10_007, result);
        Assert.Equal(1, program.InitializeCalls);
    }

    [Fact]
    public async Task Initialize_MakesDataOnce_AndRunsReuseIt()
    {
        var program = new CountingMapReduce(1000, 2);
        Assert.False(program.IsInitialized);
        Assert.Throws<InvalidOperationException>(() => program.SourceElements);

        program.Initialize();
        int[] data = program.SourceElements;
        await program.RunAsync().WaitAsync(SkeletonPrograms.Timeout);
        await program.RunAsync().WaitAsync(SkeletonPrograms.Timeout);
        program.Initialize();

        Assert.True(program.IsInitialized);
        Assert.Equal(1, program.InitializeCalls);
        Assert.Same(data, program.SourceElements);
    }

    private sealed class CountingMapReduce : MapReduce<int, long>
    {
        public CountingMapReduce(int length, int branching)
            : base(length, seed: 1, branching)
        {
        }

        public int InitializeCalls { get; private set; }

        protected override int[] GenerateElements(int length, int seed)
        {
            InitializeCalls++;
            return new int[length];
        }

        protected override long Map(int element) => 1;

        protected override long Reduce(long first, long second) => first + second;
    }
}
