namespace DivCon.Multiprogramming;

/// <summary>What started a repartitioning.</summary>
public enum RepartitionTrigger
{
    /// <summary>The periodic tick.</summary>
    Interval = 0,

    /// <summary>A program was added.</summary>
    ProgramArrival,

    /// <summary>A program was removed.</summary>
    ProgramExit,

    /// <summary>An explicit <see cref="MultiProgramScheduler.Repartition"/> call or a policy change.</summary>
    Manual,

    /// <summary>
    /// A worker with nothing to do lent itself to another program, or a lent worker went back to its own (its borrower
    /// ran out of tasks, or its own program had a queued task again: a recall) (idle lending: the policy's borrower
    /// rule, no allocation).
    /// </summary>
    IdleLending,

    /// <summary>
    /// The blocking monitor started a compensating worker for a program whose workers were stuck in tasks with tasks
    /// queued, or one ended (MultiProgramSchedulerOptions.CompensateBlocking).
    /// </summary>
    BlockingCompensation,

    /// <summary>
    /// Demand-driven repartitioning (<see cref="MultiProgramSchedulerOptions.RepartitionOnDemand"/>): a program got work
    /// while none of its workers was idle, or ran dry.
    /// </summary>
    Demand,

    /// <summary>
    /// A periodic repartitioning whose input changed because a program's online scalability estimate changed (or first
    /// appeared) (<see cref="MultiProgramSchedulerOptions.ScalabilityEstimation"/>): the moves it made are the estimate's.
    /// </summary>
    ScalabilityEstimate,
}
