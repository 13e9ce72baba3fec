using System.Globalization;
using System.Text;
using DivCon.Partitioning;

namespace DivCon.Harness.Plans;

/// <summary>Renders a policy's plan as a readable table or as JSON (invariant culture; programs numbered from 1).</summary>
public static class PlanReport
{
    private const int LabelWidth = 20;
    private const int ColumnWidth = 14;

    /// <summary>The plan as a readable table: shares, base, capped, each step with its scores, final.</summary>
    public static string Text(PlanRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        PartitioningInput input = request.Input;
        int m = input.Programs.Count;
        var sb = new StringBuilder();
        sb.AppendLine(F($"Policy: {request.Policy}, {input.Cores} cores, {m} programs"));
        sb.AppendLine();
        Row(sb, string.Empty, Enumerable.Range(1, m).Select(i => F($"P{i}")));
        Row(sb, "Speedup", input.Programs.Select(p => F($"{p.Scalability:0.00}")));

        switch (request.Policy)
        {
            case ScalabilityPolicy.PolicyName:
            {
                ScalabilityPlan plan = new ScalabilityPolicy().Plan(input);
                ShareRows(sb, plan);
                Transfers(sb, plan);
                sb.AppendLine();
                Row(sb, "Final allocation", plan.Base.Select(c => F($"{c}")));
                break;
            }

            case HillClimbingPolicy.PolicyName:
            {
                HillClimbingPlan plan = new HillClimbingPolicy().Plan(input);
                ShareRows(sb, plan.Start);
                Transfers(sb, plan.Start);
                sb.AppendLine();
                sb.AppendLine(F($"Hill climbing (predicted NTT_i(c) = S_i({input.Cores}) / S_i(c); ANTT = mean):"));
                sb.AppendLine(F($"Start: ANTT {plan.StartAntt:0.0000}"));
                var counts = plan.Start.Base.ToArray();
                foreach (HillClimbingMove move in plan.Moves)
                {
                    counts[move.From]--;
                    counts[move.To]++;
                    sb.AppendLine(F($"Move one core P{move.From + 1} -> P{move.To + 1}: {string.Join(" / ", counts)}  ANTT {move.PredictedAntt:0.0000}"));
                }

                sb.AppendLine(plan.Moves.Count == 0 ? "No move lowers the predicted ANTT." : F($"No further move lowers the predicted ANTT ({plan.FinalAntt:0.0000})."));
                sb.AppendLine();
                Row(sb, "Final allocation", plan.Final.Select(c => F($"{c}")));
                break;
            }

            default:
            {
                TaskAvailabilityPlan plan = new TaskAvailabilityPolicy().Plan(input);
                ShareRows(sb, plan.Scalability);
                Transfers(sb, plan.Scalability);
                sb.AppendLine();
                Row(sb, "Tasks available", plan.Tasks.Select(t => F($"{t}")));
                Row(sb, "Capped allocation", plan.Capped.Select(c => F($"{c}")));
                sb.AppendLine();
                sb.AppendLine("Active allocation (score = allocation / share; * = receives the next core):");
                var rows = plan.Rows();
                RepartitionPhase? phase = null;
                for (int k = 0; k < plan.Steps.Count; k++)
                {
                    RepartitionStep step = plan.Steps[k];
                    if (phase != step.Phase)
                    {
                        phase = step.Phase;
                        sb.AppendLine(step.Phase == RepartitionPhase.TaskBounded
                            ? "-- only programs short of tasks may receive a core --"
                            : "-- every program's tasks are met: lowest score without the task bound --");
                    }

                    StepRow(sb, plan, step.RemainingBefore, rows[k], step.Program);
                }

                if (plan.Steps.Count == 0)
                {
                    sb.AppendLine("No program is short of tasks: the capped allocation stands.");
                }
                else
                {
                    StepRow(sb, plan, 0, rows[^1], -1);
                }

                sb.AppendLine();
                Row(sb, "Final allocation", plan.Final.Select(c => F($"{c}")));
                if (request.Policy == IdleLendingPolicy.PolicyName)
                {
                    sb.AppendLine();
                    sb.AppendLine("Between ticks, a worker whose program has no task is lent to the program with the lowest score");
                    sb.AppendLine("(workers serving it / share) among those with a task waiting, until that program runs dry or the next tick.");
                }

                break;
            }
        }

        return sb.ToString();
    }

    /// <summary>The plan as a record (what <c>divcon plan --json</c> prints).</summary>
    public static PlanRecord Record(PlanRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        PartitioningInput input = request.Input;
        double[] speedups = input.Programs.Select(p => p.Scalability).ToArray();
        switch (request.Policy)
        {
            case ScalabilityPolicy.PolicyName:
            {
                ScalabilityPlan plan = new ScalabilityPolicy().Plan(input);
                PlanStep[] steps = plan.MinimumTransfers.Select(t => new PlanStep("at-least-one") { From = t.From + 1, To = t.To + 1 }).ToArray();
                return new PlanRecord(request.Policy, input.Cores, speedups, plan.Shares, plan.Base, null, null, steps, plan.Base);
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

                return new PlanRecord(request.Policy, input.Cores, speedups, plan.Start.Shares, plan.Start.Base, null, null, steps, plan.Final)
                {
                    StartAntt = plan.StartAntt,
                    FinalAntt = plan.FinalAntt,
                };
            }

            default:
            {
                TaskAvailabilityPlan plan = new TaskAvailabilityPolicy().Plan(input);
                var rows = plan.Rows();
                PlanStep[] steps = plan.Steps.Select((step, k) => new PlanStep(step.Phase == RepartitionPhase.TaskBounded ? "task-bounded" : "unbounded")
                {
                    Remaining = step.RemainingBefore,
                    Allocation = rows[k],
                    Scores = rows[k].Select((c, i) => plan.Score(i, c)).ToArray(),
                    Program = step.Program + 1,
                }).ToArray();
                return new PlanRecord(request.Policy, input.Cores, speedups, plan.Scalability.Shares, plan.Scalability.Base, plan.Tasks, plan.Capped, steps, plan.Final)
                {
                    FinalScores = plan.Final.Select((c, i) => plan.Score(i, c)).ToArray(),
                };
            }
        }
    }

    private static void ShareRows(StringBuilder sb, ScalabilityPlan plan)
    {
        Row(sb, "Scalability ratio", plan.Shares.Select(x => F($"{x / plan.Cores:0.00}")));
        Row(sb, "Proportional share", plan.Shares.Select(x => F($"{x:0.00}")));
        Row(sb, "Base allocation", plan.Base.Select(c => F($"{c}")));
    }

    private static void Transfers(StringBuilder sb, ScalabilityPlan plan)
    {
        foreach (CoreTransfer t in plan.MinimumTransfers)
        {
            sb.AppendLine(F($"  (at least one core each: P{t.From + 1} gives one core to P{t.To + 1})"));
        }

        if (plan.Cores < plan.Shares.Count)
        {
            sb.AppendLine(F($"  (fewer cores than programs: one core each to the {plan.Cores} most scalable)"));
        }
    }

    private static void StepRow(StringBuilder sb, TaskAvailabilityPlan plan, int remaining, IReadOnlyList<int> counts, int chosen)
    {
        var cells = counts.Select((c, i) => F($"{c} ({plan.Score(i, c):0.000}){(i == chosen ? "*" : " ")}"));
        Row(sb, F($"Remaining: {remaining}"), cells);
    }

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
