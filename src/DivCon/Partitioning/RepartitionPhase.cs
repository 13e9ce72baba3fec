namespace DivCon.Partitioning;

/// <summary>Which stage of task-availability repartitioning gave a core (steps 3 and 4 of Figure 5.20).</summary>
public enum RepartitionPhase
{
    /// <summary>Step 3: only programs still short of tasks (a_i &lt; tasks_i) may receive the core.</summary>
    TaskBounded,

    /// <summary>Step 4: every program's tasks are met; the core goes by lowest score without the task bound.</summary>
    Unbounded,
}
