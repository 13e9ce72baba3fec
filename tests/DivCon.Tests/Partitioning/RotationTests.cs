using DivCon.Partitioning;

namespace DivCon.Tests.Partitioning;

/// <summary>
/// Rotation with fewer cores than programs: successive decisions on an unchanged input, each fed the previous one,
/// give every program a core within ⌈programs / cores⌉ decisions; with cores ≥ programs nothing changes.
/// </summary>
public sealed class RotationTests
{
    public static TheoryData<string, int, int> Cases()
    {
        var data = new TheoryData<string, int, int>();
        foreach (string policy in PartitioningPolicies.Names)
        {
            data.Add(policy, 2, 3);
            data.Add(policy, 2, 5);
            data.Add(policy, 3, 7);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void EveryProgramGetsACore_WithinCeilingProgramsOverCoresDecisions(string policyName, int cores, int programs)
    {
        IPartitioningPolicy policy = PartitioningPolicies.Create(policyName);

        // Distinct scalabilities and plenty of tasks: without rotation the least scalable would never get a core.
        var loads = Enumerable.Range(0, programs).Select(i => new ProgramLoad(100 + i, 1.0 + (programs - i), 50)).ToArray();
        int window = (programs + cores - 1) / cores;
        var history = Decisions(policy, cores, loads, 4 * window);
        for (int d = 0; d < history.Count; d++)
        {
            Assert.Equal(cores, history[d].Counts.Sum());
            Assert.All(history[d].Counts, n => Assert.InRange(n, 0, 1));

            // A core the policy alone would not give (it gives the first decision's set every time) is a rotation.
            bool differs = !history[d].Counts.SequenceEqual(history[0].Counts);
            Assert.Equal(differs, history[d].Reasons.Contains(AllocationReason.Rotation));
        }

        // Every window of ⌈m / n⌉ consecutive decisions serves every program.
        for (int start = 0; start + window <= history.Count; start++)
        {
            for (int p = 0; p < programs; p++)
            {
                int program = p;
                Assert.True(
                    history.Skip(start).Take(window).Any(a => a.Counts[program] == 1),
                    $"{policyName}: program {program} had no core in decisions {start}..{start + window - 1}");
            }
        }
    }

    [Theory]
    [InlineData(2, 3)]
    [InlineData(2, 5)]
    [InlineData(3, 7)]
    public void EqualShares_FewerCoresThanPrograms_EveryProgramGetsACoreWithinCeilingProgramsOverCores(int cores, int programs)
    {
        var loads = Enumerable.Range(0, programs).Select(i => new ProgramLoad(100 + i, 1.0 + i, 50 + i)).ToArray();
        int window = (programs + cores - 1) / cores;
        var history = Decisions(new EqualSharesPolicy(), cores, loads, 4 * window);

        Assert.All(history, a => Assert.Equal(cores, a.Counts.Sum()));
        for (int start = 0; start + window <= history.Count; start++)
        {
            for (int p = 0; p < programs; p++)
            {
                int program = p;
                Assert.True(
                    history.Skip(start).Take(window).Any(a => a.Counts[program] == 1),
                    $"equal-shares: program {program} had no core in decisions {start}..{start + window - 1}");
            }
        }
    }

    [Fact]
    public void FirstDecision_IsThePolicysOwn_MostScalableFirst()
    {
        var loads = new[] { new ProgramLoad(1, 2.0, 9), new ProgramLoad(2, 5.0, 9), new ProgramLoad(3, 3.0, 9) };
        foreach (string name in PartitioningPolicies.Names)
        {
            Allocation a = PartitioningKit.Decided(PartitioningPolicies.Create(name), new PartitioningInput(2, loads));
            Assert.Equal([0, 1, 1], a.Counts);
            Assert.DoesNotContain(AllocationReason.Rotation, a.Reasons);
        }
    }

    [Fact]
    public void TwoCoresThreePrograms_RotateAsTheTableSays()
    {
        // Policy order: program 1 (s = 5), program 2 (s = 3), program 0 (s = 2).
        var loads = new[] { new ProgramLoad(1, 2.0, 9), new ProgramLoad(2, 5.0, 9), new ProgramLoad(3, 3.0, 9) };
        int[][] expected = [[0, 1, 1], [1, 1, 0], [0, 1, 1], [1, 1, 0]];
        foreach (string name in PartitioningPolicies.Names)
        {
            var history = Decisions(PartitioningPolicies.Create(name), 2, loads, expected.Length);
            Assert.Equal(expected, history.Select(a => a.Counts.ToArray()).ToArray());
        }
    }

    [Fact]
    public void TaskAvailability_RotatesOnlyAmongProgramsWithTasks()
    {
        var loads = new[]
        {
            new ProgramLoad(1, 9.0, 0), new ProgramLoad(2, 5.0, 4), new ProgramLoad(3, 4.0, 4),
            new ProgramLoad(4, 3.0, 4), new ProgramLoad(5, 2.0, 4),
        };
        var history = Decisions(new TaskAvailabilityPolicy(), 2, loads, 6);
        Assert.All(history, a => Assert.Equal(0, a.Counts[0]));
        for (int start = 0; start + 2 <= history.Count; start++)
        {
            for (int p = 1; p < loads.Length; p++)
            {
                int program = p;
                Assert.True(history.Skip(start).Take(2).Any(a => a.Counts[program] == 1), $"program {program}, decisions from {start}");
            }
        }
    }

    [Fact]
    public void EnoughCores_PreviousChangesNothing()
    {
        var loads = new[] { new ProgramLoad(1, 2.0, 1), new ProgramLoad(2, 5.0, 9), new ProgramLoad(3, 3.0, 0) };
        foreach (string name in PartitioningPolicies.Names)
        {
            IPartitioningPolicy policy = PartitioningPolicies.Create(name);
            Allocation first = PartitioningKit.Decided(policy, new PartitioningInput(4, loads));
            Allocation next = PartitioningKit.Decided(policy, new PartitioningInput(4, loads, Previous: first));
            Assert.Equal(first.Counts, next.Counts);
            Assert.Equal(0, next.MovesFrom(first));
            Assert.DoesNotContain(AllocationReason.Rotation, next.Reasons);
        }
    }

    [Fact]
    public void RandomInputs_FewerCoresThanPrograms_CountsSumAndNobodyStarves()
    {
        var rng = new Random(6602);
        for (int c = 0; c < 400; c++)
        {
            int cores = rng.Next(1, 6);
            int programs = cores + rng.Next(1, 8);
            var loads = Enumerable.Range(0, programs)
                .Select(i => new ProgramLoad(rng.Next(1000) * 16 + i, Math.Round(0.5 + (rng.NextDouble() * 20), rng.Next(0, 3)), rng.Next(1, 40)))
                .ToArray();
            int window = (programs + cores - 1) / cores;
            foreach (string name in PartitioningPolicies.Names)
            {
                var history = Decisions(PartitioningPolicies.Create(name), cores, loads, 3 * window);
                Assert.All(history, a => Assert.Equal(cores, a.Counts.Sum()));
                Assert.All(history, a => Assert.All(a.Counts, n => Assert.InRange(n, 0, 1)));
                for (int start = 0; start + window <= history.Count; start++)
                {
                    for (int p = 0; p < programs; p++)
                    {
                        int program = p;
                        Assert.True(
                            history.Skip(start).Take(window).Any(a => a.Counts[program] == 1),
                            $"{name}: program {program} had no core in decisions {start}..{start + window - 1}, case {c}");
                    }
                }
            }
        }
    }

    [Fact]
    public void RandomInputs_EnoughCores_CountsAreThoseWithoutAPrevious()
    {
        var rng = new Random(6603);
        for (int c = 0; c < 400; c++)
        {
            int programs = rng.Next(1, 8);
            int cores = programs + rng.Next(0, 6);
            var loads = Enumerable.Range(0, programs)
                .Select(i => new ProgramLoad(i + 1, Math.Round(0.5 + (rng.NextDouble() * 20), 2), rng.Next(0, 12)))
                .ToArray();

            // Any previous allocation over the same programs, even a lopsided one.
            var owners = Enumerable.Range(0, cores).Select(_ => rng.Next(programs)).ToArray();
            Allocation previous = PartitioningKit.ByIndex(loads.Select(l => l.ProgramId).ToArray(), owners);
            foreach (string name in PartitioningPolicies.Names)
            {
                IPartitioningPolicy policy = PartitioningPolicies.Create(name);
                Allocation fresh = PartitioningKit.Decided(policy, new PartitioningInput(cores, loads));
                Allocation next = PartitioningKit.Decided(policy, new PartitioningInput(cores, loads, Previous: previous));
                Assert.Equal(fresh.Counts, next.Counts);
                Assert.DoesNotContain(AllocationReason.Rotation, next.Reasons);
            }
        }
    }

    [Theory]
    [InlineData("equal-shares")]
    [InlineData("task-availability")]
    public void A_turn_that_has_not_begun_is_not_taken_back(string policyName)
    {
        // Four busy programs on two cores. After the first rotation, one of the two new holders is "awaiting service"
        // (no worker has reached it yet): the next decisions keep its core, in the same slot, for as long as it waits;
        // the other core keeps rotating among the rest. Without the awaiting set the next decision takes it back.
        IPartitioningPolicy policy = PartitioningPolicies.Create(policyName);
        var loads = Enumerable.Range(0, 4).Select(i => new ProgramLoad(100 + i, 1.0, 50)).ToArray();
        var repartitioner = new Repartitioner(2);
        Allocation first = repartitioner.Decide(policy, loads, null).Allocation;
        Allocation second = repartitioner.Decide(policy, loads, first).Allocation;
        int[] newHolders = loads.Select(l => l.ProgramId).Where(id => second.CoresOf(id) > 0 && first.CoresOf(id) == 0).ToArray();
        Assert.Equal(2, newHolders.Length);
        int waiting = newHolders[1];
        int slot = Array.IndexOf(second.WorkerOwners.ToArray(), waiting);

        Assert.Equal(0, repartitioner.Decide(policy, loads, second).Allocation.CoresOf(waiting)); // the turn taken back

        Allocation previous = second;
        var servedOthers = new HashSet<int>();
        for (int d = 0; d < 4; d++)
        {
            Allocation next = repartitioner.Decide(policy, loads, previous, awaitingService: [waiting]).Allocation;
            Assert.Equal(1, next.CoresOf(waiting));
            Assert.Equal(waiting, next.WorkerOwners[slot]);
            servedOthers.UnionWith(loads.Select(l => l.ProgramId).Where(id => id != waiting && next.CoresOf(id) > 0));
            previous = next;
        }

        Assert.Equal(3, servedOthers.Count); // the other core went round the other three

        // Once served, the turn ends at the next decision as usual.
        Assert.Equal(0, repartitioner.Decide(policy, loads, previous).Allocation.CoresOf(waiting));
    }

    private static List<Allocation> Decisions(IPartitioningPolicy policy, int cores, ProgramLoad[] loads, int count)
    {
        var history = new List<Allocation>();
        Allocation? previous = null;
        for (int d = 0; d < count; d++)
        {
            previous = PartitioningKit.Decided(policy, new PartitioningInput(cores, loads, Previous: previous));
            Assert.Empty(previous.Validate(new PartitioningInput(cores, loads)));
            history.Add(previous);
        }

        return history;
    }
}
