namespace DivCon.Multiprogramming;

/// <summary>
/// A move that waited on a running task, recorded on the <see cref="AllocationTimeline"/> when the worker finally made it
/// (<see cref="AllocationTimeline.GetPendingMoves"/>): from <see cref="DecidedTimestamp"/> to <see cref="Timestamp"/> the
/// worker was assigned to <see cref="ToProgramId"/> but still running a task of <see cref="FromProgramId"/>, whose
/// statistics that time is charged to. Only waits of at least <see cref="AllocationTimeline.PendingMoveThreshold"/> are recorded.
/// </summary>
/// <param name="Timestamp">When the worker switched (<see cref="System.Diagnostics.Stopwatch.GetTimestamp"/> ticks).</param>
/// <param name="DecidedTimestamp">When the move was decided.</param>
/// <param name="Worker">The worker slot.</param>
/// <param name="FromProgramId">The program whose task held the worker, or null for none.</param>
/// <param name="ToProgramId">The program it switched to, or null for none.</param>
/// <param name="Age">How long the move waited (<see cref="Timestamp"/> - <see cref="DecidedTimestamp"/>).</param>
public sealed record PendingMoveEnded(long Timestamp, long DecidedTimestamp, int Worker, int? FromProgramId, int? ToProgramId, TimeSpan Age);
