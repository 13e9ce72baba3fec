namespace DivCon.Partitioning;

/// <summary>
/// One core given during task-availability repartitioning: a row of the thesis's Figure 5.20 with its selected
/// (green-striped) entry.
/// </summary>
/// <param name="Phase">Step 3 (task-bounded) or step 4 (unbounded).</param>
/// <param name="RemainingBefore">Cores still to give before this step (the figure's "Remaining: r").</param>
/// <param name="Program">Index of the program that received the core.</param>
/// <param name="CountBefore">Its cores before the step.</param>
/// <param name="ScoreBefore">Its score a_i / share_i before the step: the lowest among the eligible programs.</param>
/// <param name="ScoreAfter">Its score after the step.</param>
public readonly record struct RepartitionStep(
    RepartitionPhase Phase,
    int RemainingBefore,
    int Program,
    int CountBefore,
    double ScoreBefore,
    double ScoreAfter);
