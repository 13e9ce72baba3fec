namespace DivCon.Partitioning;

/// <summary>Why a worker slot was given to a program: the policy's own words, recorded on the allocation timeline.</summary>
public enum AllocationReason
{
    /// <summary>No reason recorded (for example the slot is unassigned because there are no programs).</summary>
    None = 0,

    /// <summary>Part of the program's share by scalability (largest-remainder rounding of cores · s_i / Σs).</summary>
    ScalabilityShare,

    /// <summary>Given during task-availability repartitioning to a program that still had unmet available tasks.</summary>
    AvailabilityCap,

    /// <summary>A core left over after every program's tasks were met, given by lowest score without the task bound.</summary>
    SpareCore,

    /// <summary>An equal share of the cores.</summary>
    EqualShare,

    /// <summary>Set from outside (a fixed allocation).</summary>
    Fixed,

    /// <summary>Chosen by a search over predicted ANTT (hill climbing over scalability tables).</summary>
    HillClimbing,

    /// <summary>
    /// Lent because the worker's own program had no task: until its own program has a queued task again
    /// (<see cref="Recall"/>), the borrower has no task (<see cref="LoanReturn"/>) or the next allocation.
    /// </summary>
    IdleLending,

    /// <summary>Redistributed because a program arrived.</summary>
    ProgramArrival,

    /// <summary>Redistributed because a program left.</summary>
    ProgramExit,

    /// <summary>
    /// Given because the program held no core in the previous decision while there are fewer cores than programs
    /// (the cores rotate so that no program is starved for good).
    /// </summary>
    Rotation,

    /// <summary>
    /// A lent worker went back to the program the allocation in force gives its slot, because the program it was lent
    /// to had no task it could find (idle lending, <see cref="T:DivCon.Partitioning.IdleLending"/>).
    /// </summary>
    LoanReturn,

    /// <summary>
    /// A compensating worker (a temporary thread past the pool's slots) started for a program whose workers were all
    /// stuck in tasks while it had tasks queued (blocking compensation).
    /// </summary>
    BlockingCompensation,

    /// <summary>A compensating worker ended: the worker it stood in for returned, or it found nothing to do.</summary>
    CompensationEnded,

    /// <summary>
    /// A lent worker went back to the program the allocation in force gives its slot, at its next task boundary,
    /// because that program had a queued task again (idle lending's recall, <see cref="T:DivCon.Partitioning.IdleLending"/>).
    /// </summary>
    Recall,

    /// <summary>
    /// A compensating worker started for a program that had tasks queued and was owed a worker (assigned to it, or its
    /// home while lent away) that was inside another program's task and so could not move (a long task: moves happen
    /// only between tasks). It serves the program until that worker returns from its task.
    /// </summary>
    MoveCompensation,

    /// <summary>
    /// Given (or taken) for a bounded probe of the online scalability estimator: a program estimated online is seen at
    /// another core count for a few ticks (<see cref="T:DivCon.Partitioning.Estimation.ProbeAllocation"/>).
    /// </summary>
    Probe,

    /// <summary>
    /// Given to a newcomer: a program whose attained service since it was added is still below the short-job quantum and
    /// that has work (tasks queued or running) is served first, with cores taken from the others
    /// (<see cref="T:DivCon.Partitioning.NewcomerPriority"/>).
    /// </summary>
    Newcomer,
}
