using DivCon.Partitioning;
using DivCon.Scheduling;

namespace DivCon.Multiprogramming;

/// <summary>
/// The allocation in force, published by the mover as one immutable object (one volatile write) and read without a
/// lock by workers (the lender: homes, the borrower rule's input) and by the public views (programs, cores).
/// </summary>
internal sealed class AllocationSnapshot
{
    private volatile bool _movesDone;

    public AllocationSnapshot(
        ProgramHandle[] programs,
        ProgramLoad[] loads,
        Allocation allocation,
        int[] owners,
        WorkQueueSet?[] homes,
        WorkQueueSet?[] previousHomes,
        AllocationReason[] reasons,
        RepartitionTrigger trigger,
        IIdleLendingPolicy? lendingRule,
        bool lending,
        int[][]? wideBuffers)
    {
        Programs = programs;
        Loads = loads;
        Allocation = allocation;
        Owners = owners;
        Homes = homes;
        PreviousHomes = previousHomes;
        Reasons = reasons;
        Trigger = trigger;
        LendingRule = lendingRule;
        Lending = lending;
        WideBuffers = wideBuffers;
    }

    /// <summary>The programs of the decision, in its order (arrival order).</summary>
    public ProgramHandle[] Programs { get; }

    /// <summary>What the decision used per program (scalability, table): the borrower rule's view of the programs.</summary>
    public ProgramLoad[] Loads { get; }

    /// <summary>The placed decision, keyed by program id.</summary>
    public Allocation Allocation { get; }

    /// <summary>Per slot: the index into <see cref="Programs"/> of its owner, or -1.</summary>
    public int[] Owners { get; }

    /// <summary>Per slot: its owner's queue set (the worker's home), or null.</summary>
    public WorkQueueSet?[] Homes { get; }

    /// <summary>Per slot: its home in the allocation before this one.</summary>
    public WorkQueueSet?[] PreviousHomes { get; }

    /// <summary>Per slot: why it was given its home (the trigger's reason when the policy gave none).</summary>
    public AllocationReason[] Reasons { get; }

    /// <summary>What started the decision.</summary>
    public RepartitionTrigger Trigger { get; }

    /// <summary>The policy's borrower rule, or null for <see cref="IdleLending.ChooseBorrower"/> (the IdleLending option).</summary>
    public IIdleLendingPolicy? LendingRule { get; }

    /// <summary>Whether idle workers may be lent under this decision.</summary>
    public bool Lending { get; }

    /// <summary>Per slot, room for the borrower rule's counts when they do not fit on the stack (see Lender), or null.</summary>
    public int[][]? WideBuffers { get; }

    /// <summary>Set by the mover once it has moved every worker to its home (written once, under the scheduler's lock).</summary>
    public bool MovesDone
    {
        get => _movesDone;
        set => _movesDone = value;
    }

    public int CoresOf(int programId) => Allocation.CoresOf(programId);

    public static AllocationSnapshot Empty(int workers)
        => new([], [], Allocation.Empty(workers), Enumerable.Repeat(-1, workers).ToArray(), new WorkQueueSet?[workers], new WorkQueueSet?[workers], new AllocationReason[workers], RepartitionTrigger.Manual, null, false, null) { MovesDone = true };
}
