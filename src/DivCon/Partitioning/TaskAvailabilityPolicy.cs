namespace DivCon.Partitioning;

/// <summary>
/// Task-availability-based dynamic repartitioning (thesis §5.3.4, Figure 5.20), step by step:
/// <list type="number">
/// <item>share_i = cores · s_i / Σs; base_i = largest-remainder rounding of share_i (<see cref="ScalabilityPolicy"/>).</item>
/// <item>a_i = min(base_i, tasks_i); remaining = cores − Σa_i.</item>
/// <item>while remaining &gt; 0 and some program has a_i &lt; tasks_i: among those, one core to the lowest score
/// a_i / share_i (ties: higher scalability, then lower index).</item>
/// <item>while remaining &gt; 0: one core to the lowest score, without the task bound.</item>
/// </list>
/// </summary>
/// <remarks>
/// <para>Cost: a heap gives O(m + n log m) for n cores and m programs. When no program is short of tasks
/// (tasks_i ≥ base_i for all i) steps 3 and 4 do nothing and the decision is the O(m) check after the base
/// allocation (itself expected O(m)).</para>
/// <para>Edge cases: no programs → every slot unassigned; one program → all cores; fewer cores than programs → the
/// base follows <see cref="ScalabilityPolicy"/> (one core each to the most scalable), and step 3 then prefers a
/// program with tasks and no core (score 0) over any program holding one; zero tasks everywhere → every base is
/// capped to 0, step 3 has no eligible program, and step 4 deals all cores by lowest score (one each first while
/// cores ≥ programs, then by scalability), so idle cores stay spread as the scores say.</para>
/// <para>Rotation: when more programs have available tasks than there are cores, the steps above give one core each
/// to the most scalable of them, for good while the input stays the same. The <see cref="Repartitioner"/> then
/// rotates the cores among the programs with tasks (<see cref="RotationScope.ProgramsWithTasks"/>): given a previous
/// allocation, programs with tasks that held no core in it come first, round robin in the same order, so each gets a
/// core within ⌈programs with tasks / cores⌉ decisions (recorded as <see cref="AllocationReason.Rotation"/>).
/// <see cref="Plan"/> and <see cref="Compute"/> show the thesis's decision; with cores ≥ programs rotation never
/// applies.</para>
/// <para>Property: a program exceeds its available tasks only when no other program is short of tasks.</para>
/// </remarks>
public sealed class TaskAvailabilityPolicy : IPartitioningPolicy
{
    /// <summary>The name used in reports and on the command line.</summary>
    public const string PolicyName = "task-availability";

    /// <inheritdoc/>
    public string Name => PolicyName;

    /// <inheritdoc/>
    public RotationScope Rotation => RotationScope.ProgramsWithTasks;

    /// <inheritdoc/>
    /// <remarks>
    /// Postconditions, asserted before returning: one share per program summing to the cores, and Figure 5.20's
    /// availability property (a program holds more cores than its available tasks only when no program is short of
    /// tasks: its cap is its tasks while another program is short).
    /// </remarks>
    public Shares Decide(PartitioningInput input)
    {
        TaskAvailabilityPlan plan = Plan(input);
        Postconditions.Availability(input, plan.Final, PolicyName);
        return Shares.FromOwnedReasons(input, ReasonsOf(plan)).Checked(input, PolicyName);
    }

    /// <summary>The decision for <paramref name="input"/> with every intermediate step.</summary>
    /// <exception cref="ArgumentException">The input is invalid (see <see cref="PartitioningValidation"/>).</exception>
    public TaskAvailabilityPlan Plan(PartitioningInput input)
    {
        PartitioningValidation.ThrowIfInvalid(input);
        return Compute(
            input.Cores,
            input.Programs.Select(p => p.Scalability).ToArray(),
            input.Programs.Select(p => p.AvailableTasks).ToArray());
    }

    /// <summary>The pure function behind the policy (index = program index).</summary>
    /// <param name="cores">Positive.</param>
    /// <param name="scalabilities">Each positive and finite.</param>
    /// <param name="availableTasks">Same length as <paramref name="scalabilities"/>; each non-negative.</param>
    public static TaskAvailabilityPlan Compute(int cores, IReadOnlyList<double> scalabilities, IReadOnlyList<int> availableTasks)
    {
        ArgumentNullException.ThrowIfNull(scalabilities);
        ArgumentNullException.ThrowIfNull(availableTasks);
        if (availableTasks.Count != scalabilities.Count)
        {
            throw new ArgumentException(
                $"There are {scalabilities.Count} scalabilities but {availableTasks.Count} task counts; give one of each per program.",
                nameof(availableTasks));
        }

        for (int i = 0; i < availableTasks.Count; i++)
        {
            if (availableTasks[i] < 0)
            {
                throw new ArgumentOutOfRangeException(nameof(availableTasks), availableTasks[i], $"Available tasks of program {i} must not be negative.");
            }
        }

        ScalabilityPlan basePlan = ScalabilityPolicy.Compute(cores, scalabilities);
        int m = scalabilities.Count;
        var tasks = availableTasks.ToArray();
        var capped = new int[m];
        long held = 0;
        for (int i = 0; i < m; i++)
        {
            capped[i] = Math.Min(basePlan.Base[i], tasks[i]);
            held += capped[i];
        }

        int remaining = m == 0 ? 0 : (int)(cores - held);
        var steps = new List<RepartitionStep>(remaining);
        var final = (int[])capped.Clone();
        if (remaining == 0)
        {
            // The common case (§5.3.4): nobody is short of tasks, so the O(m) check above is the whole decision.
            return new TaskAvailabilityPlan(basePlan, tasks, capped, steps, final);
        }

        var s = scalabilities.ToArray();
        var shares = basePlan.Shares;
        var keys = new double[m];
        for (int i = 0; i < m; i++)
        {
            keys[i] = ProgramPriority.Key(final[i], s[i]);
        }

        // Step 3: only programs short of tasks are in the heap; one leaves it when its tasks are met.
        var bounded = new ProgramHeap(keys, s, Enumerable.Range(0, m).Where(i => final[i] < tasks[i]));
        while (remaining > 0 && bounded.Count > 0)
        {
            int p = bounded.Peek();
            steps.Add(Give(RepartitionPhase.TaskBounded, p, remaining, final, keys, s, shares));
            remaining--;
            if (final[p] < tasks[p])
            {
                bounded.TopKeyIncreased(); // stays in the heap: one sift instead of a pop and a push
            }
            else
            {
                bounded.Pop();
            }
        }

        // Step 4: every program's tasks are met; the rest go by lowest score alone.
        if (remaining > 0)
        {
            var unbounded = new ProgramHeap(keys, s, Enumerable.Range(0, m));
            while (remaining > 0)
            {
                int p = unbounded.Peek();
                steps.Add(Give(RepartitionPhase.Unbounded, p, remaining, final, keys, s, shares));
                remaining--;
                unbounded.TopKeyIncreased();
            }
        }

        return new TaskAvailabilityPlan(basePlan, tasks, capped, steps, final);
    }

    /// <summary>Per program, the reason of each of its cores: capped ones by share, step-3 ones by availability, step-4 ones as spare.</summary>
    internal static AllocationReason[][] ReasonsOf(TaskAvailabilityPlan plan)
    {
        int m = plan.Final.Count;
        var reasons = new AllocationReason[m][];
        var filled = new int[m];
        for (int i = 0; i < m; i++)
        {
            reasons[i] = new AllocationReason[plan.Final[i]];
            filled[i] = plan.Capped[i];
            reasons[i].AsSpan(0, filled[i]).Fill(AllocationReason.ScalabilityShare);
        }

        foreach (RepartitionStep step in plan.Steps)
        {
            reasons[step.Program][filled[step.Program]++] = step.Phase == RepartitionPhase.TaskBounded ? AllocationReason.AvailabilityCap : AllocationReason.SpareCore;
        }

        return reasons;
    }

    private static RepartitionStep Give(
        RepartitionPhase phase, int p, int remaining, int[] counts, double[] keys, double[] s, IReadOnlyList<double> shares)
    {
        int before = counts[p];
        counts[p]++;
        keys[p] = ProgramPriority.Key(counts[p], s[p]);
        return new RepartitionStep(phase, remaining, p, before, before / shares[p], counts[p] / shares[p]);
    }
}
