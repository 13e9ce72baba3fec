namespace DivCon.Partitioning;

/// <summary>
/// What a partitioning policy knows about one program when it decides: plain data, read by the mechanism just
/// before the decision.
/// </summary>
/// <param name="ProgramId">A stable id of the program (unique within one decision); used for tie-breaks and reports.</param>
/// <param name="Scalability">The program's speedup when run alone on the whole machine (T_seq / T_par); must be positive.</param>
/// <param name="AvailableTasks">Tasks queued for the program and not yet started (its global queue plus its deques); never negative.</param>
/// <param name="ScalabilityTable">Optional speedups at several core counts, for policies that use more than one number.</param>
/// <param name="AttainedService">
/// Optional: the service the program has attained since it was added (the time its tasks ran, summed over workers), for
/// the repartitioner's short-job priority (<see cref="NewcomerPriority"/>); never negative. Null: not measured (the
/// program is never a newcomer). Policies need not read it.
/// </param>
/// <param name="RunningTasks">
/// Optional: the program's tasks running now (started, not finished); never negative. With <paramref name="AvailableTasks"/>
/// it tells whether the program has work (a newcomer whose tasks all run keeps its priority).
/// </param>
public sealed record ProgramLoad(
    int ProgramId, double Scalability, int AvailableTasks, ScalabilityTable? ScalabilityTable = null, TimeSpan? AttainedService = null, int RunningTasks = 0);
