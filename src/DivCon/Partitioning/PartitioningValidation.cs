namespace DivCon.Partitioning;

/// <summary>
/// Checks a <see cref="PartitioningInput"/> before a policy reads it. Every problem is collected, each as one
/// sentence saying what is allowed, so a front end can print them all at once.
/// </summary>
public static class PartitioningValidation
{
    // The input the Repartitioner on this thread has just checked and is passing to a policy, so that the policy's
    // own check (policies are public and check what they are given) does not repeat it. Set and cleared by
    // Repartitioner.Decide around the policy call, on the same thread; PartitioningInput is immutable.
    [ThreadStatic]
    private static PartitioningInput? t_checked;

    /// <summary>Marks <paramref name="input"/> (already checked) as valid for the policy call that follows, or clears the mark (null).</summary>
    internal static void MarkChecked(PartitioningInput? input) => t_checked = input;

    /// <summary>
    /// Whether <paramref name="input"/> is valid, without building any message: the repartitioner's per-decision
    /// check. <paramref name="ids"/> is the caller's reusable set (cleared here); <paramref name="groupsChecked"/>: the
    /// cache groups were checked already (the repartitioner's, at its construction).
    /// </summary>
    internal static bool IsValid(PartitioningInput input, HashSet<int> ids, bool groupsChecked)
    {
        if (input.Cores <= 0 || input.Programs is null || (input.CacheGroups is not null && !groupsChecked)
            || (input.Previous is not null && input.Previous.Cores != input.Cores))
        {
            return input.Cores > 0 && input.Programs is not null && GetProblems(input).Count == 0; // the rare paths: the full check
        }

        ids.Clear();
        for (int i = 0; i < input.Programs.Count; i++)
        {
            ProgramLoad? p = input.Programs[i];
            if (p is null || !(p.Scalability > 0) || double.IsInfinity(p.Scalability) || p.AvailableTasks < 0 || p.AttainedService < TimeSpan.Zero || p.RunningTasks < 0 || !ids.Add(p.ProgramId))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>The problems with <paramref name="input"/>; empty when every policy may read it.</summary>
    public static IReadOnlyList<string> GetProblems(PartitioningInput input)
    {
        ArgumentNullException.ThrowIfNull(input);
        var problems = new List<string>();
        if (input.Cores <= 0)
        {
            problems.Add($"The number of cores must be positive; got {input.Cores}.");
        }

        if (input.Programs is null)
        {
            problems.Add("The list of programs must not be null (use an empty list for no programs).");
            return problems;
        }

        var ids = new HashSet<int>();
        for (int i = 0; i < input.Programs.Count; i++)
        {
            ProgramLoad? p = input.Programs[i];
            if (p is null)
            {
                problems.Add($"Program {i} is null.");
                continue;
            }

            if (!(p.Scalability > 0) || double.IsInfinity(p.Scalability))
            {
                problems.Add($"Program {i} (id {p.ProgramId}): scalability must be a positive finite number; got {p.Scalability}.");
            }

            if (p.AvailableTasks < 0)
            {
                problems.Add($"Program {i} (id {p.ProgramId}): available tasks must not be negative; got {p.AvailableTasks}.");
            }

            if (p.AttainedService < TimeSpan.Zero)
            {
                problems.Add($"Program {i} (id {p.ProgramId}): attained service must not be negative; got {p.AttainedService}.");
            }

            if (p.RunningTasks < 0)
            {
                problems.Add($"Program {i} (id {p.ProgramId}): running tasks must not be negative; got {p.RunningTasks}.");
            }

            if (!ids.Add(p.ProgramId))
            {
                problems.Add($"Program {i}: id {p.ProgramId} is used by another program; ids must be unique within one decision.");
            }
        }

        if (input.Cores > 0 && input.CacheGroups is not null)
        {
            AddCacheGroupProblems(input.Cores, input.CacheGroups, problems);
        }

        if (input.Previous is not null && input.Cores > 0 && input.Previous.Cores != input.Cores)
        {
            problems.Add($"The previous allocation covers {input.Previous.Cores} worker slots but there are {input.Cores}.");
        }

        return problems;
    }

    /// <summary>Throws an <see cref="ArgumentException"/> listing every problem, one per line, unless the input is valid.</summary>
    public static void ThrowIfInvalid(PartitioningInput input)
    {
        if (t_checked is not null && ReferenceEquals(input, t_checked))
        {
            return;
        }

        var problems = GetProblems(input);
        if (problems.Count > 0)
        {
            throw new ArgumentException(string.Join(Environment.NewLine, problems), nameof(input));
        }
    }

    private static void AddCacheGroupProblems(int cores, IReadOnlyList<IReadOnlyList<int>> groups, List<string> problems)
    {
        var seen = new bool[cores];
        for (int g = 0; g < groups.Count; g++)
        {
            if (groups[g] is null || groups[g].Count == 0)
            {
                problems.Add($"Cache group {g} is empty; every group needs at least one worker slot.");
                continue;
            }

            foreach (int slot in groups[g])
            {
                if (slot < 0 || slot >= cores)
                {
                    problems.Add($"Cache group {g} names worker slot {slot}; slots are 0..{cores - 1}.");
                }
                else if (seen[slot])
                {
                    problems.Add($"Worker slot {slot} is in more than one cache group; each slot belongs to exactly one.");
                }
                else
                {
                    seen[slot] = true;
                }
            }
        }

        int missing = seen.Count(s => !s);
        if (missing > 0)
        {
            problems.Add($"{missing} worker slot(s) are in no cache group; every slot must be in exactly one.");
        }
    }
}
