using DivCon.Partitioning;

namespace DivCon.Tests.Partitioning;

public sealed class InternalsTests
{
    [Fact]
    public void TopSelection_PicksTheSameSetAsASort()
    {
        var rng = new Random(5320);
        for (int c = 0; c < 2000; c++)
        {
            int n = rng.Next(0, 300);
            // Few distinct keys, so many equal keys fall back on the index tie-break.
            var keys = Enumerable.Range(0, n).Select(_ => (double)rng.Next(0, 6)).ToArray();
            Comparison<int> compare = (a, b) => ProgramPriority.Compare(keys[a], 1, a, keys[b], 1, b);
            int k = rng.Next(0, n + 1);
            var items = Enumerable.Range(0, n).OrderBy(_ => rng.Next()).ToArray();

            TopSelection.SelectFirst(items, k, compare);

            var expected = Enumerable.Range(0, n).Order(Comparer<int>.Create(compare)).Take(k).Order();
            Assert.Equal(expected, items.Take(k).Order());
        }
    }

    [Fact]
    public void ProgramHeap_PopsInPriorityOrder()
    {
        var rng = new Random(5321);
        for (int c = 0; c < 500; c++)
        {
            int m = rng.Next(1, 60);
            var keys = Enumerable.Range(0, m).Select(_ => (double)rng.Next(0, 5)).ToArray();
            var s = Enumerable.Range(0, m).Select(_ => (double)rng.Next(1, 4)).ToArray();
            var heap = new ProgramHeap(keys, s, Enumerable.Range(0, m));
            var popped = new List<int>();
            while (heap.Count > 0)
            {
                popped.Add(heap.Pop());
            }

            var expected = Enumerable.Range(0, m).Order(Comparer<int>.Create((a, b) => ProgramPriority.Compare(keys[a], s[a], a, keys[b], s[b], b)));
            Assert.Equal(expected, popped);
        }
    }

    [Theory]
    [InlineData(0.0, 0.0)]
    [InlineData(1.0 / 3, 0.333333333333)]
    [InlineData(12 / 35.68, 0.336322869955)]
    [InlineData(1234.5678901234567, 1234.56789012)]
    public void Quantize_RoundsToTwelveSignificantDigits(double x, double expected) =>
        Assert.Equal(expected, ProgramPriority.Quantize(x));

    [Fact]
    public void CompareRaw_AgreesWithCompareOnRoundedKeys()
    {
        var rng = new Random(5323);
        for (int c = 0; c < 20000; c++)
        {
            // Near-ties from decimal inputs, exact ties, and unrelated values.
            double si = Math.Round(0.5 + (rng.NextDouble() * 40), 2), sj = Math.Round(0.5 + (rng.NextDouble() * 40), 2);
            int ai = rng.Next(0, 50), aj = rng.Next(0, 50);
            if (c % 3 == 0)
            {
                sj = Math.Round(si * (aj + 1) / Math.Max(1, ai), 2);
            }

            int i = rng.Next(0, 4), j = i + 1;
            int expected = ProgramPriority.Compare(ProgramPriority.Key(ai, si), si, i, ProgramPriority.Key(aj, sj), sj, j);
            Assert.Equal(expected, ProgramPriority.CompareRaw(ai / si, si, i, aj / sj, sj, j));
        }
    }

    [Fact]
    public void Quantize_MakesDecimalTiesExact()
    {
        Assert.NotEqual(12 / 35.68, 9 / 26.76);
        Assert.Equal(ProgramPriority.Key(12, 35.68), ProgramPriority.Key(9, 26.76));
    }

    [Fact]
    public void TaskAvailability_AtScale_EqualsTheNaiveReference()
    {
        var rng = new Random(5322);
        for (int c = 0; c < 20; c++)
        {
            int cores = 1024, m = 256;
            var s = Enumerable.Range(0, m).Select(_ => Math.Round(1 + (rng.NextDouble() * 30), 2)).ToArray();
            var tasks = Enumerable.Range(0, m).Select(i => i % 2 == 0 ? rng.Next(0, 3) : rng.Next(0, 20)).ToArray();

            TaskAvailabilityPlan plan = TaskAvailabilityPolicy.Compute(cores, s, tasks);

            Assert.Equal(cores, plan.Final.Sum());
            // Reference: the same four steps with linear scans.
            var a = plan.Scalability.Base.Select((b, i) => Math.Min(b, tasks[i])).ToArray();
            int remaining = cores - a.Sum();
            foreach (bool bounded in new[] { true, false })
            {
                while (remaining > 0)
                {
                    int best = -1;
                    for (int i = 0; i < m; i++)
                    {
                        if ((!bounded || a[i] < tasks[i])
                            && (best < 0 || ProgramPriority.Compare(ProgramPriority.Key(a[i], s[i]), s[i], i, ProgramPriority.Key(a[best], s[best]), s[best], best) < 0))
                        {
                            best = i;
                        }
                    }

                    if (best < 0)
                    {
                        break;
                    }

                    a[best]++;
                    remaining--;
                }
            }

            Assert.Equal(a, plan.Final);
        }
    }
}
