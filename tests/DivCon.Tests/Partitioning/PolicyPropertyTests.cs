using DivCon.Partitioning;

namespace DivCon.Tests.Partitioning;

/// <summary>Seeded property checks over thousands of random inputs (deterministic: same seeds, same inputs).</summary>
public sealed class PolicyPropertyTests
{
    private const int Cases = 3000;

    [Fact]
    public void CountsSumToCores_AndEveryProgramHasACoreWhileCoresSuffice()
    {
        var rng = new Random(5301);
        IPartitioningPolicy[] policies = PartitioningPolicies.Names.Select(PartitioningPolicies.Create).ToArray();
        for (int c = 0; c < Cases; c++)
        {
            PartitioningInput input = RandomInput(rng, withTables: c % 2 == 0);
            foreach (IPartitioningPolicy policy in policies)
            {
                Allocation a = PartitioningKit.Decided(policy, input);
                Assert.Empty(a.Validate(input));
                Assert.Equal(input.Programs.Count == 0 ? 0 : input.Cores, a.Counts.Sum());
                if (input.Programs.Count > 0 && policy is ScalabilityPolicy or HillClimbingPolicy or EqualSharesPolicy or WorkConservingPolicy)
                {
                    if (input.Cores >= input.Programs.Count)
                    {
                        Assert.All(a.Counts, n => Assert.True(n >= 1, $"{policy.Name}: a program has no core, case {c}"));
                    }
                    else
                    {
                        Assert.All(a.Counts, n => Assert.True(n <= 1, $"{policy.Name}: a second core while a program has none, case {c}"));
                    }
                }
            }
        }
    }

    [Fact]
    public void ScalabilityBase_IsWithinOneOfTheShare_WhenNoTransferWasNeeded()
    {
        var rng = new Random(5302);
        for (int c = 0; c < Cases; c++)
        {
            PartitioningInput input = RandomInput(rng, withTables: false);
            if (input.Programs.Count == 0 || input.Cores < input.Programs.Count)
            {
                continue;
            }

            ScalabilityPlan plan = ScalabilityPolicy.Compute(input.Cores, input.Programs.Select(p => p.Scalability).ToArray());
            if (plan.MinimumTransfers.Count > 0)
            {
                continue;
            }

            for (int i = 0; i < plan.Base.Count; i++)
            {
                Assert.InRange(plan.Base[i], Math.Floor(plan.Shares[i]), Math.Ceiling(plan.Shares[i]));
            }

            // Largest remainder: every receiver's remainder is at least every non-receiver's.
            var rem = plan.Shares.Select((x, i) => x - plan.Floors[i]).ToArray();
            var receivers = plan.RemainderReceivers.ToHashSet();
            if (receivers.Count > 0 && receivers.Count < rem.Length)
            {
                double minIn = receivers.Min(i => rem[i]);
                double maxOut = Enumerable.Range(0, rem.Length).Where(i => !receivers.Contains(i)).Max(i => rem[i]);
                Assert.True(minIn >= maxOut, $"case {c}: a larger remainder was passed over");
            }
        }
    }

    [Fact]
    public void TaskAvailability_NoProgramExceedsItsTasksWhileAnotherIsShort()
    {
        var rng = new Random(5303);
        for (int c = 0; c < Cases; c++)
        {
            PartitioningInput input = RandomInput(rng, withTables: false);
            int[] tasks = input.Programs.Select(p => p.AvailableTasks).ToArray();
            var final = new TaskAvailabilityPolicy().Plan(input).Final;
            bool someoneOver = Enumerable.Range(0, tasks.Length).Any(i => final[i] > tasks[i]);
            bool someoneShort = Enumerable.Range(0, tasks.Length).Any(i => final[i] < tasks[i]);
            Assert.False(someoneOver && someoneShort, $"case {c}: a program exceeds its tasks while another is short");
        }
    }

    [Fact]
    public void TaskAvailability_HeapEqualsANaiveReferenceOfDesignSection4()
    {
        var rng = new Random(5304);
        for (int c = 0; c < Cases; c++)
        {
            PartitioningInput input = RandomInput(rng, withTables: false);
            double[] s = input.Programs.Select(p => p.Scalability).ToArray();
            int[] tasks = input.Programs.Select(p => p.AvailableTasks).ToArray();
            TaskAvailabilityPlan plan = TaskAvailabilityPolicy.Compute(input.Cores, s, tasks);

            (int[] expected, List<int> order) = NaiveRepartition(input.Cores, s, tasks, plan.Scalability.Base);

            Assert.True(expected.SequenceEqual(plan.Final) && order.SequenceEqual(plan.Steps.Select(x => x.Program)),
                $"case {c}: cores {input.Cores}, s [{string.Join(", ", s)}], tasks [{string.Join(", ", tasks)}], base [{string.Join(", ", plan.Scalability.Base)}]: "
                + $"expected {string.Join(",", order)} got {string.Join(",", plan.Steps.Select(x => x.Program))}");
        }
    }

    [Fact]
    public void OrderIndependent_ExceptForTheIndexTieBreakBetweenEqualScalabilities()
    {
        var rng = new Random(5305);
        for (int c = 0; c < Cases; c++)
        {
            // Small integer scalabilities make score and remainder ties frequent.
            PartitioningInput input = RandomInput(rng, withTables: false, tieProne: true);
            ProgramLoad[] permuted = PermuteKeepingEqualScalabilityOrder(rng, input.Programs);
            var permutedInput = input with { Programs = permuted };

            AssertSameById(input, permutedInput, new ScalabilityPolicy(), c);
            AssertSameById(input, permutedInput, new TaskAvailabilityPolicy(), c);
        }
    }

    [Fact]
    public void OrderIndependent_UnderAnyPermutation_WhenScalabilitiesAreDistinct()
    {
        var rng = new Random(5306);
        for (int c = 0; c < Cases; c++)
        {
            PartitioningInput input = RandomInput(rng, withTables: false);
            if (input.Programs.Select(p => p.Scalability).Distinct().Count() != input.Programs.Count)
            {
                continue;
            }

            var permuted = input.Programs.OrderBy(_ => rng.Next()).ToArray();
            AssertSameById(input, input with { Programs = permuted }, new TaskAvailabilityPolicy(), c);
        }
    }

    [Fact]
    public void TieBreak_IsReal_EqualProgramsDependOnIndex()
    {
        // Two identical programs, 3 cores: the remainder tie goes to the lower index, whichever program that is.
        ProgramLoad a = new(1, 2.0, 10), b = new(2, 2.0, 10);
        var ab = new PartitioningInput(3, [a, b]);
        var ba = new PartitioningInput(3, [b, a]);
        Assert.Equal([2, 1], new TaskAvailabilityPolicy().Decide(ab).CountsByIndex(ab));
        Assert.Equal([2, 1], new TaskAvailabilityPolicy().Decide(ba).CountsByIndex(ba));
    }

    [Fact]
    public void HillClimbing_NeverPredictsWorseThanProportional()
    {
        var rng = new Random(5307);
        int improved = 0;
        for (int c = 0; c < Cases; c++)
        {
            PartitioningInput input = RandomInput(rng, withTables: true);
            HillClimbingPlan plan = new HillClimbingPolicy().Plan(input);
            double proportional = HillClimbingPolicy.PredictedAntt(input.Programs, plan.Start.Base, input.Cores);
            double final = HillClimbingPolicy.PredictedAntt(input.Programs, plan.Final, input.Cores);

            Assert.Equal(proportional, plan.StartAntt);
            Assert.True(final <= proportional, $"case {c}: {final} > {proportional}");
            Assert.Equal(input.Programs.Count == 0 ? 0 : input.Cores, plan.Final.Sum());
            if (final < proportional)
            {
                improved++;
            }
        }

        // The random tables are non-monotone often enough that the search must find improvements.
        Assert.True(improved > Cases / 10, $"only {improved} of {Cases} cases improved");
    }

    internal static PartitioningInput RandomInput(Random rng, bool withTables, bool tieProne = false)
    {
        int m = rng.Next(0, 10);
        int cores = rng.Next(0, 4) == 0 ? rng.Next(1, 8) : rng.Next(1, 70);
        var programs = new ProgramLoad[m];
        var ids = Enumerable.Range(0, 1000).OrderBy(_ => rng.Next()).Take(m).ToArray();
        for (int i = 0; i < m; i++)
        {
            double s = tieProne ? rng.Next(1, 5) : Math.Round(0.5 + (rng.NextDouble() * 40), 2);
            int tasks = rng.Next(0, 4) switch
            {
                0 => 0,
                1 => rng.Next(0, 4),
                2 => rng.Next(0, cores + 1),
                _ => rng.Next(0, 200),
            };
            programs[i] = new ProgramLoad(ids[i], s, tasks, withTables ? RandomTable(rng, cores) : null);
        }

        return new PartitioningInput(cores, programs);
    }

    internal static ScalabilityTable RandomTable(Random rng, int cores)
    {
        var points = new List<(int, double)> { (1, 1.0) };
        for (int c = 2; c <= cores; c *= 2)
        {
            points.Add((c, 0.3 + (rng.NextDouble() * c)));
        }

        if (cores > 1 && points[^1].Item1 != cores)
        {
            points.Add((cores, 0.3 + (rng.NextDouble() * cores)));
        }

        return new ScalabilityTable(points);
    }

    private static (int[] Final, List<int> Order) NaiveRepartition(int cores, double[] s, int[] tasks, IReadOnlyList<int> baseCounts)
    {
        int m = s.Length;
        var a = Enumerable.Range(0, m).Select(i => Math.Min(baseCounts[i], tasks[i])).ToArray();
        int remaining = m == 0 ? 0 : cores - a.Sum();
        var order = new List<int>();
        foreach (bool bounded in new[] { true, false })
        {
            while (remaining > 0)
            {
                int best = -1;
                for (int i = 0; i < m; i++)
                {
                    if (bounded && a[i] >= tasks[i])
                    {
                        continue;
                    }

                    // Lower a/s first (compared exactly: decimal cross-products of the 2-decimal inputs), then higher s,
                    // then lower index.
                    if (best < 0)
                    {
                        best = i;
                        continue;
                    }

                    decimal left = a[i] * (decimal)s[best], right = a[best] * (decimal)s[i];
                    if (left < right || (left == right && s[i] > s[best]))
                    {
                        best = i;
                    }
                }

                if (best < 0)
                {
                    break;
                }

                a[best]++;
                order.Add(best);
                remaining--;
            }
        }

        return (a, order);
    }

    private static ProgramLoad[] PermuteKeepingEqualScalabilityOrder(Random rng, IReadOnlyList<ProgramLoad> programs)
    {
        var positions = programs.OrderBy(_ => rng.Next()).ToArray();
        var result = new ProgramLoad[programs.Count];

        // Each scalability value keeps its programs' relative order: refill its slots in the original order.
        foreach (var group in positions.Select((p, pos) => (p, pos)).GroupBy(x => x.p.Scalability))
        {
            var slots = group.Select(x => x.pos).Order().ToArray();
            var inOriginalOrder = programs.Where(p => p.Scalability == group.Key).ToArray();
            for (int k = 0; k < slots.Length; k++)
            {
                result[slots[k]] = inOriginalOrder[k];
            }
        }

        return result;
    }

    private static void AssertSameById(PartitioningInput a, PartitioningInput b, IPartitioningPolicy policy, int c)
    {
        var ca = policy.Decide(a).CountsByIndex(a);
        var cb = policy.Decide(b).CountsByIndex(b);
        var byIdA = a.Programs.Select((p, i) => (p.ProgramId, ca[i])).OrderBy(x => x.ProgramId);
        var byIdB = b.Programs.Select((p, i) => (p.ProgramId, cb[i])).OrderBy(x => x.ProgramId);
        Assert.True(byIdA.SequenceEqual(byIdB), $"{policy.Name}, case {c}: the result depends on program order");
    }
}
