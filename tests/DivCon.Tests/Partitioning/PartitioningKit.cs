using DivCon.Partitioning;

namespace DivCon.Tests.Partitioning;

/// <summary>
/// Test helpers over the id-keyed partitioning API: counts and owners by program index of an input (as the tables
/// of hand-computed cases are written), and a policy's decision as the mechanism applies it (through the
/// <see cref="Repartitioner"/>: rotation and placement).
/// </summary>
internal static class PartitioningKit
{
    /// <summary>Per program index of <paramref name="input"/>: its counts as shares (reasons optional, one per core).</summary>
    public static Shares SharesOf(PartitioningInput input, IReadOnlyList<int> counts, IReadOnlyList<IReadOnlyList<AllocationReason>>? reasons = null)
        => Shares.FromCounts(input, counts, reasons);

    /// <summary>Placement of per-index counts.</summary>
    public static Allocation Place(PartitioningInput input, IReadOnlyList<int> counts, IReadOnlyList<IReadOnlyList<AllocationReason>>? reasons = null)
        => Placement.Place(input, SharesOf(input, counts, reasons));

    /// <summary>An allocation of <paramref name="input"/>'s programs from per-slot owner indices (-1: none).</summary>
    public static Allocation ByIndex(PartitioningInput input, IReadOnlyList<int> ownerIndices)
        => ByIndex(input.Programs.Select(p => p.ProgramId).ToArray(), ownerIndices);

    /// <summary>An allocation of the programs <paramref name="ids"/> from per-slot owner indices into it (-1: none).</summary>
    public static Allocation ByIndex(IReadOnlyList<int> ids, IReadOnlyList<int> ownerIndices)
        => new(ids, ownerIndices.Select(i => i < 0 ? -1 : ids[i]).ToArray());

    /// <summary>Per slot, the index in <paramref name="input"/> of its owner (-1: none).</summary>
    public static int[] OwnerIndices(this Allocation allocation, PartitioningInput input)
    {
        var index = input.Programs.Select((p, i) => (p.ProgramId, i)).ToDictionary(x => x.ProgramId, x => x.i);
        return allocation.WorkerOwners.Select(id => id < 0 ? -1 : index[id]).ToArray();
    }

    /// <summary>Per program index of <paramref name="input"/>, its cores.</summary>
    public static int[] CountsByIndex(this Allocation allocation, PartitioningInput input)
        => input.Programs.Select(p => allocation.CoresOf(p.ProgramId)).ToArray();

    /// <summary>Per program index of <paramref name="input"/>, its cores.</summary>
    public static int[] CountsByIndex(this Shares shares, PartitioningInput input) => shares.CountsFor(input);

    /// <summary>The policy's decision for <paramref name="input"/>, rotated and placed as the mechanism applies it (a rejection fails the test).</summary>
    public static Allocation Decided(IPartitioningPolicy policy, PartitioningInput input)
    {
        RepartitionResult result = new Repartitioner(input.Cores, input.CacheGroups).Decide(policy, input.Programs, input.Previous);
        Assert.True(result.Rejection is null, result.Rejection);
        return result.Allocation;
    }
}
