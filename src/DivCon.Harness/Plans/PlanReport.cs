using System.Globalization;
using System.Text;
using DivCon.Partitioning;

namespace DivCon.Harness.Plans;

/// <summary>Renders a policy's plan as a readable table or as JSON (invariant culture; programs numbered from 1).</summary>
public static class PlanReport
{
    private const int LabelWidth = 20;
    private const int ColumnWidth = 14;
    private const string TaskBounded = "task-bounded";

    /// <summary>The plan as a readable table: shares, base, capped, each step with its scores, final.</summary>
    public static string Text(string policy, PartitioningInput input)
    {
        (PlanRecord plan, ScalabilityPlan shares) = Plan(policy, input);
        var sb = new StringBuilder();
        sb.AppendLine(F($"Policy: {plan.Policy}, {plan.Cores} cores, {plan.Speedups.Count} programs"));
        sb.AppendLine();
        Row(sb, string.Empty, Enumerable.Range(1, plan.Speedups.Count).Select(i => F($"P{i}")));
        Row(sb, "Speedup", plan.Speedups.Select(s => F($"{s:0.00}")));
        Row(sb, "Scalability ratio", plan.Shares.Select(x => F($"{x / plan.Cores:0.00}")));
        Row(sb, "Proportional share", plan.Shares.Select(x => F($"{x:0.00}")));
        Row(sb, "Base allocation", plan.Base.Select(c => F($"{c}")));
        foreach (CoreTransfer t in shares.MinimumTransfers)
        {
            sb.AppendLine(F($"  (at least one core each: P{t.From + 1} gives one core to P{t.To + 1})"));
        }

        if (plan.Cores < plan.Shares.Count)
        {
            sb.AppendLine(F($"  (fewer cores than programs: one core each to the {plan.Cores} most scalable)"));
        }

        sb.AppendLine();
        if (plan.Policy == HillClimbingPolicy.PolicyName)
        {
            sb.AppendLine(F($"Hill climbing (predicted NTT_i(c) = S_i({plan.Cores}) / S_i(c); ANTT = mean):"));
            sb.AppendLine(F($"Start: ANTT {plan.StartAntt:0.0000}"));
            foreach (PlanStep move in plan.Steps)
            {
                sb.AppendLine(F($"Move one core P{move.From} -> P{move.To}: {string.Join(" / ", move.Allocation!)}  ANTT {move.PredictedAntt:0.0000}"));
            }

            sb.AppendLine(plan.Steps.Count == 0 ? "No move lowers the predicted ANTT." : F($"No further move lowers the predicted ANTT ({plan.FinalAntt:0.0000})."));
            sb.AppendLine();
        }
        else if (plan.Tasks is not null)
        {
            Row(sb, "Tasks available", plan.Tasks.Select(t => F($"{t}")));
            Row(sb, "Capped allocation", plan.Capped!.Select(c => F($"{c}")));
            sb.AppendLine();
            sb.AppendLine("Active allocation (score = allocation / share; * = receives the next core):");
            string? kind = null;
            foreach (PlanStep step in plan.Steps)
            {
                if (kind != step.Kind)
                {
                    kind = step.Kind;
                    sb.AppendLine(kind == TaskBounded
                        ? "-- only programs short of tasks may receive a core --"
                        : "-- every program's tasks are met: lowest score without the task bound --");
                }

                StepRow(sb, step.Remaining!.Value, step.Allocation!, step.Scores!, step.Program!.Value - 1);
            }

            if (plan.Steps.Count == 0)
            {
                sb.AppendLine("No program is short of tasks: the capped allocation stands.");
            }
            else
            {
                StepRow(sb, 0, plan.Final, plan.FinalScores!, -1);
            }

            sb.AppendLine();
        }

        Row(sb, "Final allocation", plan.Final.Select(c => F($"{c}")));
        if (plan.Policy == IdleLendingPolicy.PolicyName)
        {
            sb.AppendLine();
            sb.AppendLine("Between ticks, a worker whose program has no task is lent to the program with the lowest score");
            sb.AppendLine("(workers serving it / share) among those with a task waiting, until that program runs dry or the next tick.");
        }

        return sb.ToString();
    }

    /// <summary>The plan as a record (what <c>divcon plan --json</c> prints).</summary>
    public static PlanRecord Record(string policy, PartitioningInput input) => Plan(policy, input).Record;

    /// <summary>The plan's record, and the scalability plan its shares and base allocation come from.</summary>
    private static (PlanRecord Record, ScalabilityPlan Shares) Plan(string policy, PartitioningInput input)
    {
        ArgumentNullException.ThrowIfNull(input);
        double[] speedups = input.Programs.Select(p => p.Scalability).ToArray();
        switch (policy)
        {
            case ScalabilityPolicy.PolicyName:
            {
                ScalabilityPlan plan = new ScalabilityPolicy().Plan(input);
                PlanStep[] steps = plan.MinimumTransfers.Select(t => new PlanStep("at-least-one") { From = t.From + 1, To = t.To + 1 }).ToArray();
                return (new PlanRecord(policy, input.Cores, speedups, plan.Shares, plan.Base, null, null, steps, plan.Base), plan);
            }

            case HillClimbingPolicy.PolicyName:
            {
                HillClimbingPlan plan = new HillClimbingPolicy().Plan(input);
                var counts = plan.Start.Base.ToArray();
                var steps = new List<PlanStep>();
                foreach (HillClimbingMove move in plan.Moves)
                {
                    counts[move.From]--;
                    counts[move.To]++;
                    steps.Add(new PlanStep("hill-climbing-move") { From = move.From + 1, To = move.To + 1, Allocation = counts.ToArray(), PredictedAntt = move.PredictedAntt });
                }

                return (new PlanRecord(policy, input.Cores, speedups, plan.Start.Shares, plan.Start.Base, null, null, steps, plan.Final,
                    StartAntt: plan.StartAntt, FinalAntt: plan.FinalAntt), plan.Start);
            }

            default:
            {
                TaskAvailabilityPlan plan = new TaskAvailabilityPolicy().Plan(input);
                var rows = plan.Rows();
                PlanStep[] steps = plan.Steps.Select((step, k) => new PlanStep(step.Phase == RepartitionPhase.TaskBounded ? TaskBounded : "unbounded")
                {
                    Remaining = step.RemainingBefore,
                    Allocation = rows[k],
                    Scores = rows[k].Select((c, i) => plan.Score(i, c)).ToArray(),
                    Program = step.Program + 1,
                }).ToArray();
                return (new PlanRecord(policy, input.Cores, speedups, plan.Scalability.Shares, plan.Scalability.Base, plan.Tasks, plan.Capped, steps,
                    plan.Final, plan.Final.Select((c, i) => plan.Score(i, c)).ToArray()), plan.Scalability);
            }
        }
    }

    private static void StepRow(StringBuilder sb, int remaining, IReadOnlyList<int> counts, IReadOnlyList<double> scores, int chosen) =>
        Row(sb, F($"Remaining: {remaining}"), counts.Select((c, i) => F($"{c} ({scores[i]:0.000}){(i == chosen ? "*" : " ")}")));

    private static void Row(StringBuilder sb, string label, IEnumerable<string> cells)
    {
        var line = new StringBuilder(label.PadRight(LabelWidth));
        foreach (string cell in cells)
        {
            line.Append(cell.PadLeft(ColumnWidth));
        }

        sb.AppendLine(line.ToString().TrimEnd());
    }

    private static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
