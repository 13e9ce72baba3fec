using DivCon.Partitioning;

namespace DivCon.Multiprogramming;

/// <summary>One worker move, as recorded on the <see cref="AllocationTimeline"/>.</summary>
/// <param name="Timestamp">When the move was decided (<see cref="System.Diagnostics.Stopwatch.GetTimestamp"/> ticks).</param>
/// <param name="Worker">The worker slot.</param>
/// <param name="Processor">The processor the worker is pinned to, or null when unpinned.</param>
/// <param name="FromProgramId">The program it served before, or null for none.</param>
/// <param name="ToProgramId">The program it serves now, or null for none.</param>
/// <param name="Reason">Why, in the policy's words (or <see cref="AllocationReason.ProgramArrival"/> / <see cref="AllocationReason.ProgramExit"/> when the policy gave none on such a tick; <see cref="AllocationReason.IdleLending"/> for a lent worker, <see cref="AllocationReason.LoanReturn"/> for its return).</param>
/// <param name="Trigger">What started the repartitioning.</param>
public sealed record AllocationMove(
    long Timestamp,
    int Worker,
    int? Processor,
    int? FromProgramId,
    int? ToProgramId,
    AllocationReason Reason,
    RepartitionTrigger Trigger);
