using DivCon.Partitioning;
using DivCon.Partitioning.Estimation;

namespace DivCon.Tests.Partitioning;

/// <summary>
/// Short jobs first (<see cref="NewcomerPriority"/>), the pure step and its place in the <see cref="Repartitioner"/>:
/// cases computed by hand (which programs are newcomers, the split among them, the quantum's boundary, off at zero), the
/// interplay with fixed allocations, probes, rotation and the removal override, and seeded property checks.
/// </summary>
public sealed class NewcomerPriorityTests
{
    private static readonly TimeSpan Q = TimeSpan.FromMilliseconds(8);

    private static ProgramLoad Load(int id, int tasks, double? attainedMs)
        => new(id, 1.0, tasks, null, attainedMs is double ms ? TimeSpan.FromMilliseconds(ms) : null);

    private static Shares Equal(PartitioningInput input) => new EqualSharesPolicy().Decide(input);

    [Fact]
    public void Off_at_zero_quantum_and_without_newcomers_the_shares_are_returned_unchanged()
    {
        var input = new PartitioningInput(2, [Load(0, 5, 100), Load(1, 5, 100), Load(2, 5, 0)]);
        Shares shares = Equal(input);
        Assert.Same(shares, NewcomerPriority.Apply(input, shares, TimeSpan.Zero));

        var noNewcomer = new PartitioningInput(2, [Load(0, 5, 100), Load(1, 5, 100), Load(2, 5, 9)]);
        Shares noShares = Equal(noNewcomer);
        Assert.Same(noShares, NewcomerPriority.Apply(noNewcomer, noShares, Q));
    }

    [Fact]
    public void One_newcomer_with_queued_tasks_holds_every_core_keeping_its_own_reasons_first()
    {
        // Two long programs hold a core each; the newcomer (no core from the policy) takes both.
        var input = new PartitioningInput(2, [Load(0, 5, 500), Load(1, 5, 300), Load(2, 1, 0.5)]);
        Shares shares = PartitioningKit.SharesOf(input, [1, 1, 0], [[AllocationReason.EqualShare], [AllocationReason.EqualShare], []]);
        Shares result = NewcomerPriority.Apply(input, shares, Q);
        Assert.Equal([0, 0, 2], result.CountsFor(input));
        Assert.Equal([AllocationReason.Newcomer, AllocationReason.Newcomer], result.Find(2)!.CoreReasons);

        // A newcomer the policy already gave a core keeps that core's reason.
        Shares given = PartitioningKit.SharesOf(input, [1, 0, 1], [[AllocationReason.EqualShare], [], [AllocationReason.Rotation]]);
        Assert.Equal([AllocationReason.Rotation, AllocationReason.Newcomer], NewcomerPriority.Apply(input, given, Q).Find(2)!.CoreReasons);
    }

    [Theory]
    [InlineData(7.999, true)]
    [InlineData(8.0, false)] // at the quantum it is an ordinary program
    [InlineData(0.0, true)]
    public void The_quantum_is_a_strict_bound(double attainedMs, bool servedFirst)
    {
        var input = new PartitioningInput(2, [Load(0, 5, 100), Load(1, 5, attainedMs)]);
        Shares result = NewcomerPriority.Apply(input, Equal(input), Q);
        Assert.Equal(servedFirst ? [0, 2] : [1, 1], result.CountsFor(input));
        Assert.Equal(servedFirst, NewcomerPriority.IsServedFirst(input.Programs[1], Q));
    }

    [Fact]
    public void An_idle_newcomer_or_one_without_a_measured_service_is_not_served_first_one_whose_tasks_all_run_is()
    {
        var idle = new PartitioningInput(2, [Load(0, 5, 100), Load(1, 0, 0)]);
        Assert.True(NewcomerPriority.IsNewcomer(idle.Programs[1], Q));
        Assert.Equal([1, 1], NewcomerPriority.Apply(idle, Equal(idle), Q).CountsFor(idle));

        // Nothing queued, but a task running: it keeps its priority (its queue is empty only for a moment).
        var running = new PartitioningInput(2, [Load(0, 5, 100), Load(1, 0, 0) with { RunningTasks = 1 }]);
        Assert.True(NewcomerPriority.IsServedFirst(running.Programs[1], Q));
        Assert.Equal([0, 2], NewcomerPriority.Apply(running, Equal(running), Q).CountsFor(running));

        var unmeasured = new PartitioningInput(2, [Load(0, 5, 100), Load(1, 5, null)]);
        Assert.False(NewcomerPriority.IsNewcomer(unmeasured.Programs[1], Q));
        Assert.Equal([1, 1], NewcomerPriority.Apply(unmeasured, Equal(unmeasured), Q).CountsFor(unmeasured));
    }

    [Fact]
    public void The_least_attained_newcomer_holds_every_core_the_other_newcomers_none()
    {
        // 8 cores, three newcomers (attained 3, 1, 2 ms) and one long program: the newcomer at 1 ms holds all 8 (least
        // attained service first: a request beside a report that has already run gets the whole machine, not a third).
        var input = new PartitioningInput(8, [Load(0, 9, 3), Load(1, 9, 1), Load(2, 9, 2), Load(3, 9, 1000)]);
        Shares result = NewcomerPriority.Apply(input, Equal(input), Q);
        Assert.Equal([0, 8, 0, 0], result.CountsFor(input));

        // Once it has passed the others in service (still a newcomer), the least attained is another one.
        var later = new PartitioningInput(8, [Load(0, 9, 3), Load(1, 9, 3.5), Load(2, 9, 2), Load(3, 9, 1000)]);
        Assert.Equal([0, 0, 8, 0], NewcomerPriority.Apply(later, Equal(later), Q).CountsFor(later));
    }

    [Fact]
    public void Newcomers_tied_at_the_least_service_split_the_cores_equally_in_arrival_order()
    {
        // 8 cores, two newcomers that have not run yet (0 ms) and one at 1 ms: the two split the cores, 4 and 4.
        var split = new PartitioningInput(8, [Load(0, 9, 1), Load(1, 9, 0), Load(2, 9, 0), Load(3, 9, 1000)]);
        Assert.Equal([0, 4, 4, 0], NewcomerPriority.Apply(split, Equal(split), Q).CountsFor(split));

        // Three tied on 2 cores: the first two in arrival order hold one each; 7 cores: 3, 2, 2.
        var tied = new PartitioningInput(2, [Load(0, 9, 2), Load(1, 9, 2), Load(2, 9, 2)]);
        Assert.Equal([1, 1, 0], NewcomerPriority.Apply(tied, Equal(tied), Q).CountsFor(tied));
        var seven = new PartitioningInput(7, [Load(0, 9, 2), Load(1, 9, 2), Load(2, 9, 2)]);
        Assert.Equal([3, 2, 2], NewcomerPriority.Apply(seven, Equal(seven), Q).CountsFor(seven));
    }

    [Fact]
    public void The_repartitioner_applies_it_with_a_positive_quantum_only_and_never_to_a_fixed_allocation()
    {
        ProgramLoad[] loads = [Load(0, 5, 500), Load(1, 5, 300), Load(2, 3, 1)];
        Allocation off = new Repartitioner(2).Decide(new EqualSharesPolicy(), loads, null).Allocation;
        Assert.Equal(0, off.CoresOf(2));

        var repartitioner = new Repartitioner(2, newcomerQuantum: Q);
        Allocation on = repartitioner.Decide(new EqualSharesPolicy(), loads, null).Allocation;
        Assert.Equal(2, on.CoresOf(2));
        Assert.All(on.Reasons, r => Assert.Equal(AllocationReason.Newcomer, r));

        var fixedPolicy = new FixedAllocationPolicy(new Dictionary<int, int> { [0] = 1, [1] = 1, [2] = 0 });
        Assert.Equal(0, repartitioner.Decide(fixedPolicy, loads, on).Allocation.CoresOf(2));
        Assert.Throws<ArgumentOutOfRangeException>(() => new Repartitioner(2, newcomerQuantum: TimeSpan.FromTicks(-1)));
    }

    [Fact]
    public void Newcomers_win_over_probes_and_a_removing_program_is_still_served()
    {
        var repartitioner = new Repartitioner(4, newcomerQuantum: Q);
        ProgramLoad[] loads = [Load(0, 9, 500), Load(1, 9, 500), Load(2, 9, 1)];
        Allocation probed = repartitioner.Decide(new EqualSharesPolicy(), loads, null, probes: [new ScalabilityProbe(0, 3)]).Allocation;
        Assert.Equal([0, 0, 4], probed.Counts.ToArray());

        // Program 1 is being removed with tasks outstanding: the removal override gives it a slot, from the newcomer.
        Allocation served = repartitioner.Decide(new EqualSharesPolicy(), loads, probed, mustServe: [1]).Allocation;
        Assert.Equal(1, served.CoresOf(1));
        Assert.Equal(3, served.CoresOf(2));
        Assert.Equal(AllocationReason.ProgramExit, served.Reasons[Array.IndexOf(served.WorkerOwners.ToArray(), 1)]);
    }

    [Fact]
    public void When_the_newcomer_passes_the_quantum_the_cores_rotate_to_the_programs_it_had_taken_them_from()
    {
        var repartitioner = new Repartitioner(2, newcomerQuantum: Q);
        ProgramLoad[] arriving = [Load(0, 5, 500), Load(1, 5, 300), Load(2, 5, 1)];
        Allocation boosted = repartitioner.Decide(new EqualSharesPolicy(), arriving, null).Allocation;
        Assert.Equal([0, 0, 2], boosted.Counts.ToArray());

        // Past the quantum: three programs, two cores; the two that held none in the boosted decision get them back.
        ProgramLoad[] ordinary = [Load(0, 5, 500), Load(1, 5, 300), Load(2, 5, 9)];
        Allocation after = repartitioner.Decide(new EqualSharesPolicy(), ordinary, boosted).Allocation;
        Assert.Equal([1, 1, 0], after.Counts.ToArray());
        Assert.DoesNotContain(AllocationReason.Newcomer, after.Reasons);
    }

    [Fact]
    public void Seeded_random_inputs_keep_the_contract_and_the_rule()
    {
        var random = new Random(20);
        for (int round = 0; round < 500; round++)
        {
            int cores = random.Next(1, 17);
            int m = random.Next(1, 12);
            var loads = new ProgramLoad[m];
            for (int i = 0; i < m; i++)
            {
                loads[i] = Load(i * 3 + 1, random.Next(0, 4), random.Next(4) == 0 ? null : random.NextDouble() * 16);
            }

            var input = new PartitioningInput(cores, loads);
            Shares result = NewcomerPriority.Apply(input, Equal(input), Q);
            Assert.Empty(result.Problems(input));
            int[] counts = result.CountsFor(input);
            int[] first = Enumerable.Range(0, m).Where(i => NewcomerPriority.IsServedFirst(loads[i], Q)).ToArray();
            if (first.Length == 0)
            {
                continue;
            }

            // Newcomers hold every core, all of it with the least attained (those tied with it split it, within one core
            // of each other); a newcomer with more service holds none, and so does every other program.
            TimeSpan least = first.Min(i => loads[i].AttainedService!.Value);
            int[] leastOnes = first.Where(i => loads[i].AttainedService == least).ToArray();
            Assert.Equal(cores, leastOnes.Sum(i => counts[i]));
            Assert.True(leastOnes.Max(i => counts[i]) - leastOnes.Min(i => counts[i]) <= 1, $"round {round}: tied newcomers split unevenly.");
            Assert.All(Enumerable.Range(0, m).Except(leastOnes), i => Assert.Equal(0, counts[i]));
        }
    }
}
