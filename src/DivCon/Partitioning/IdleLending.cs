namespace DivCon.Partitioning;

/// <summary>
/// Idle lending (beyond the thesis): which program an idle worker should serve instead of idling,
/// as pure rules, and the protocol the MultiProgramScheduler and the simulator follow with them.
/// </summary>
/// <remarks>
/// <para><b>Rules.</b> <see cref="ChooseBorrower"/>: among the programs other than the lender that have a task waiting
/// right now, the one with the lowest score servingWorkers_i / scalability_i (ties: higher scalability, then lower
/// index), the order of <see cref="TaskAvailabilityPolicy"/>'s steps. <see cref="ChooseByThroughput"/>: the one whose
/// predicted normalised progress gains most from one more core, (S_i(c_i + 1) − S_i(c_i)) / S_i(N) with c_i its serving
/// workers (the speedup model of <see cref="HillClimbingPolicy"/>: its table, else the Amdahl fit of its speedup),
/// ties as above: the idle core goes where it adds most system throughput (STP = Σ NP_i). A queued task counts as
/// unmet because the worker asking is idle. No such program: -1, the worker stays idle.</para>
/// <para><b>Protocol</b> (the MultiProgramScheduler when its policy implements <see cref="IIdleLendingPolicy"/>, or
/// with its IdleLending option on and this class's <see cref="ChooseBorrower"/>; the simulator the same way):</para>
/// <list type="number">
/// <item>A worker whose slot the allocation gives to program p finds no task in p (its deque, p's global queue,
/// steals within p), spinning a little first; or it is parked at home and a program with no parked worker of its own
/// queues a task (lending's wake-up: an idle core is lent at once, not at the next decision).</item>
/// <item>It calls the rule (<see cref="Choose"/>) with the decision in force, the workers serving each program now and
/// each program's available-task counter, p as the lender. The counts may be slightly stale and several idle workers
/// may ask at once: a wrong pick costs one idle pass, not correctness. An index out of range, p itself or an exception
/// means no loan (and counts as a rejected decision).</item>
/// <item>If it gets a program b ≠ -1, it moves to b with the ordinary move protocol, counts itself
/// as serving b, and records <see cref="AllocationReason.IdleLending"/>.</item>
/// <item>It serves b until one of: (a) p has a queued task: the worker goes home at its next task boundary
/// (<see cref="AllocationReason.Recall"/>; a running task is never interrupted, so the recall waits at most for the
/// task in hand); (b) b has no task it can find: it goes home (<see cref="AllocationReason.LoanReturn"/>) and may be
/// lent again; (c) the next allocation is applied: it goes wherever that puts its slot. The allocation itself never
/// changes: a loan is the mechanism's temporary deviation from it. A worker moves itself only by a compare-and-swap
/// from the set it serves, which fails once the scheduler has reassigned it, so the allocation always wins.</item>
/// </list>
/// <para>O(m) per call, no allocation: it runs on a worker between tasks.</para>
/// </remarks>
public static class IdleLending
{
    /// <summary>The program an idle worker of <see cref="LendingInput.Lender"/> should be lent to (lowest serving workers per unit of scalability), or -1.</summary>
    public static int ChooseBorrower(LendingInput input)
    {
        int best = -1;
        double bestKey = 0, bestS = 0;
        for (int i = 0; i < input.Programs.Count; i++)
        {
            if (i == input.Lender || input.AvailableTasks[i] <= 0)
            {
                continue;
            }

            double s = input.Programs[i].Scalability;
            double key = Math.Max(input.ServingWorkers[i], 0) / s;
            if (best < 0 || ProgramPriority.CompareRaw(key, s, i, bestKey, bestS, best) < 0)
            {
                best = i;
                bestKey = key;
                bestS = s;
            }
        }

        return best;
    }

    /// <summary>
    /// The program an idle worker should be lent to so that system throughput gains most: the largest predicted gain
    /// in normalised progress from one more core, (S_i(c_i + 1) − S_i(c_i)) / S_i(N); -1 when no other program has a task.
    /// </summary>
    public static int ChooseByThroughput(LendingInput input)
    {
        int n = input.Cores;
        int best = -1;
        double bestGain = 0, bestKey = 0, bestS = 0;
        for (int i = 0; i < input.Programs.Count; i++)
        {
            if (i == input.Lender || input.AvailableTasks[i] <= 0)
            {
                continue;
            }

            ProgramLoad program = input.Programs[i];
            int c = Math.Max(input.ServingWorkers[i], 0);
            double gain;
            if (program.ScalabilityTable is { } table)
            {
                gain = (table.SpeedupAt(c + 1) - table.SpeedupAt(c)) / table.SpeedupAt(n);
            }
            else
            {
                double f = SpeedupModel.ParallelFraction(program.Scalability, n);
                gain = (SpeedupModel.Amdahl(f, c + 1) - SpeedupModel.Amdahl(f, c)) / SpeedupModel.Amdahl(f, n);
            }

            double s = program.Scalability;
            double key = c / s;
            bool better = best < 0
                || gain > bestGain * (1 + 1e-12)
                || (gain >= bestGain * (1 - 1e-12) && ProgramPriority.CompareRaw(key, s, i, bestKey, bestS, best) < 0);
            if (better)
            {
                best = i;
                bestGain = gain;
                bestKey = key;
                bestS = s;
            }
        }

        return best;
    }

    /// <summary>
    /// The mechanism's call of a borrower rule (the policy's own when it has one, else <see cref="ChooseBorrower"/>):
    /// the chosen index, or -1 with a reason when the rule threw or named a program it may not (the worker is then not
    /// lent; a worker never dies of a policy's exception).
    /// </summary>
    public static int Choose(IIdleLendingPolicy? rule, LendingInput input, out string? rejection)
    {
        rejection = null;
        int m = input.Programs.Count;
        int borrower;
        try
        {
            borrower = rule is null ? ChooseBorrower(input) : rule.ChooseBorrower(input);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            rejection = $"it threw {ex.GetType().Name}: {ex.Message}";
            return -1;
        }

        if (borrower != -1 && (borrower < 0 || borrower >= m || borrower == input.Lender))
        {
            rejection = $"it chose program index {borrower} for an idle worker of program index {input.Lender}; allowed: -1 or another index in 0..{m - 1}";
            return -1;
        }

        return borrower;
    }
}
