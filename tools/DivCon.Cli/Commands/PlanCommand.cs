using System.CommandLine;
using System.Globalization;
using System.Text;
using System.Text.Json;
using DivCon.Partitioning;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon plan</c>: prints a partitioning policy's decision step by step for given numbers, e.g.
/// <c>divcon plan --cores 32 --speedups 15.18,10.43,9.71 --tasks 18,1,12</c> prints the table of the thesis's
/// Figure 5.20 (shares, base, capped, each step with its scores, final). <c>--json</c> prints the same as JSON with
/// the fields <c>shares</c>, <c>base</c>, <c>capped</c>, <c>steps</c>, <c>final</c>. Programs are numbered from 1, as
/// in the thesis.
/// </summary>
public static class PlanCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create()
    {
        var cores = new Option<int>("--cores") { Description = "Cores to divide (positive).", Required = true };
        var speedups = new Option<string>("--speedups")
        {
            Description = "Each program's speedup alone on all cores, comma-separated (positive numbers), e.g. 15.18,10.43,9.71.",
            Required = true,
        };
        var tasks = new Option<string?>("--tasks")
        {
            Description = "Each program's available tasks, comma-separated (non-negative integers); required by task-availability and idle-lending.",
        };
        var tables = new Option<string?>("--tables")
        {
            Description = "For hill-climbing: each program's scalability table as cores:speedup pairs, programs separated by ';', e.g. '1:1,4:3.5,8:2;1:1,8:8'.",
        };
        var policy = new Option<string>("--policy")
        {
            Description = "The policy to show.",
            DefaultValueFactory = _ => TaskAvailabilityPolicy.PolicyName,
        };
        policy.AcceptOnlyFromAmong([.. PartitioningPolicies.Names]);
        var json = new Option<bool>("--json") { Description = "Print JSON (fields shares, base, capped, steps, final) instead of a table." };

        var command = new Command("plan", "Show a partitioning policy's decision step by step for given cores, speedups and available tasks.")
        {
            cores, speedups, tasks, tables, policy, json,
        };
        command.SetAction(async (parseResult, cancellationToken) =>
        {
            TextWriter output = parseResult.InvocationConfiguration.Output;
            TextWriter error = parseResult.InvocationConfiguration.Error;
            var request = Parse(
                parseResult.GetValue(cores),
                parseResult.GetValue(speedups) ?? string.Empty,
                parseResult.GetValue(tasks),
                parseResult.GetValue(tables),
                parseResult.GetValue(policy) ?? TaskAvailabilityPolicy.PolicyName,
                out var problems);
            if (request is null)
            {
                foreach (string problem in problems)
                {
                    await error.WriteLineAsync($"divcon plan: {problem}");
                }

                return CliApp.UsageError;
            }

            string text = parseResult.GetValue(json) ? PlanReport.Json(request) : PlanReport.Text(request);
            await output.WriteAsync(text.AsMemory(), cancellationToken);
            return 0;
        });
        return command;
    }

    /// <summary>Checks every option value; returns the request, or null with every problem (one sentence each).</summary>
    internal static PlanRequest? Parse(int cores, string speedups, string? tasks, string? tables, string policy, out List<string> problems)
    {
        problems = [];
        if (cores <= 0)
        {
            problems.Add($"--cores must be a positive number of cores; got {cores}.");
        }

        var s = new List<double>();
        string[] speedupTokens = Split(speedups, ',');
        if (speedupTokens.Length == 0)
        {
            problems.Add("--speedups needs at least one value, e.g. --speedups 15.18,10.43,9.71.");
        }

        for (int i = 0; i < speedupTokens.Length; i++)
        {
            if (!double.TryParse(speedupTokens[i], NumberStyles.Float, CultureInfo.InvariantCulture, out double x))
            {
                problems.Add($"--speedups value {i + 1} ('{speedupTokens[i]}') is not a number.");
            }
            else if (!(x > 0) || double.IsInfinity(x))
            {
                problems.Add($"--speedups value {i + 1} must be a positive finite speedup; got {speedupTokens[i]}.");
            }
            else
            {
                s.Add(x);
            }
        }

        int[]? t = null;
        if (tasks is not null)
        {
            string[] taskTokens = Split(tasks, ',');
            t = new int[taskTokens.Length];
            for (int i = 0; i < taskTokens.Length; i++)
            {
                if (!int.TryParse(taskTokens[i], NumberStyles.Integer, CultureInfo.InvariantCulture, out t[i]))
                {
                    problems.Add($"--tasks value {i + 1} ('{taskTokens[i]}') is not a whole number.");
                }
                else if (t[i] < 0)
                {
                    problems.Add($"--tasks value {i + 1} must not be negative; got {t[i]}.");
                }
            }

            if (taskTokens.Length != speedupTokens.Length)
            {
                problems.Add($"--tasks has {taskTokens.Length} values but --speedups has {speedupTokens.Length}; give one of each per program.");
            }
        }
        else if (policy is TaskAvailabilityPolicy.PolicyName or IdleLendingPolicy.PolicyName)
        {
            problems.Add($"--tasks is required by the {policy} policy (one non-negative count per program).");
        }

        ScalabilityTable?[]? parsedTables = tables is null ? null : ParseTables(tables, speedupTokens.Length, problems);

        if (problems.Count > 0)
        {
            return null;
        }

        var programs = s.Select((x, i) => new ProgramLoad(i + 1, x, t?[i] ?? 0, parsedTables?[i])).ToArray();
        return new PlanRequest(policy, new PartitioningInput(cores, programs));
    }

    private static ScalabilityTable?[] ParseTables(string tables, int programs, List<string> problems)
    {
        string[] perProgram = tables.Split(';');
        if (perProgram.Length != programs)
        {
            problems.Add($"--tables has {perProgram.Length} tables but --speedups has {programs} values; give one table per program (';' between tables).");
        }

        var result = new ScalabilityTable?[programs];
        for (int p = 0; p < perProgram.Length && p < programs; p++)
        {
            var points = new List<(int, double)>();
            bool ok = true;
            foreach (string pair in Split(perProgram[p], ','))
            {
                string[] parts = pair.Split(':');
                if (parts.Length != 2
                    || !int.TryParse(parts[0].Trim(), NumberStyles.Integer, CultureInfo.InvariantCulture, out int c)
                    || !double.TryParse(parts[1].Trim(), NumberStyles.Float, CultureInfo.InvariantCulture, out double x))
                {
                    problems.Add($"--tables: table {p + 1} has '{pair}'; each point is cores:speedup, e.g. 4:3.5.");
                    ok = false;
                    continue;
                }

                points.Add((c, x));
            }

            if (!ok)
            {
                continue;
            }

            try
            {
                result[p] = new ScalabilityTable(points);
            }
            catch (ArgumentException e)
            {
                problems.Add($"--tables: table {p + 1}: {FirstLine(e.Message)}");
            }
        }

        return result;
    }

    private static string[] Split(string text, char separator) =>
        text.Split(separator, StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);

    private static string FirstLine(string message)
    {
        int cut = message.IndexOf(" (Parameter", StringComparison.Ordinal);
        return cut >= 0 ? message[..cut] : message;
    }
}

/// <summary>A checked <c>divcon plan</c> request.</summary>
/// <param name="Policy">The policy name.</param>
/// <param name="Input">The policy input; program ids are 1, 2, ….</param>
internal sealed record PlanRequest(string Policy, PartitioningInput Input);

/// <summary>Renders a policy's plan as a readable table or as JSON (invariant culture; programs numbered from 1).</summary>
internal static class PlanReport
{
    private const int LabelWidth = 20;
    private const int ColumnWidth = 14;

    public static string Text(PlanRequest request)
    {
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

    public static string Json(PlanRequest request)
    {
        PartitioningInput input = request.Input;
        using var stream = new MemoryStream();
        using (var w = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true }))
        {
            w.WriteStartObject();
            w.WriteString("policy", request.Policy);
            w.WriteNumber("cores", input.Cores);
            Numbers(w, "speedups", input.Programs.Select(p => p.Scalability));
            switch (request.Policy)
            {
                case ScalabilityPolicy.PolicyName:
                {
                    ScalabilityPlan plan = new ScalabilityPolicy().Plan(input);
                    BaseFields(w, plan);
                    w.WriteNull("tasks");
                    w.WriteNull("capped");
                    TransferSteps(w, plan);
                    Integers(w, "final", plan.Base);
                    break;
                }

                case HillClimbingPolicy.PolicyName:
                {
                    HillClimbingPlan plan = new HillClimbingPolicy().Plan(input);
                    BaseFields(w, plan.Start);
                    w.WriteNull("tasks");
                    w.WriteNull("capped");
                    w.WriteStartArray("steps");
                    var counts = plan.Start.Base.ToArray();
                    foreach (HillClimbingMove move in plan.Moves)
                    {
                        counts[move.From]--;
                        counts[move.To]++;
                        w.WriteStartObject();
                        w.WriteString("kind", "hill-climbing-move");
                        w.WriteNumber("from", move.From + 1);
                        w.WriteNumber("to", move.To + 1);
                        Integers(w, "allocation", counts);
                        Number(w, "predictedAntt", move.PredictedAntt);
                        w.WriteEndObject();
                    }

                    w.WriteEndArray();
                    Integers(w, "final", plan.Final);
                    Number(w, "startAntt", plan.StartAntt);
                    Number(w, "finalAntt", plan.FinalAntt);
                    break;
                }

                default:
                {
                    TaskAvailabilityPlan plan = new TaskAvailabilityPolicy().Plan(input);
                    BaseFields(w, plan.Scalability);
                    Integers(w, "tasks", plan.Tasks);
                    Integers(w, "capped", plan.Capped);
                    w.WriteStartArray("steps");
                    var rows = plan.Rows();
                    for (int k = 0; k < plan.Steps.Count; k++)
                    {
                        RepartitionStep step = plan.Steps[k];
                        w.WriteStartObject();
                        w.WriteString("kind", step.Phase == RepartitionPhase.TaskBounded ? "task-bounded" : "unbounded");
                        w.WriteNumber("remaining", step.RemainingBefore);
                        Integers(w, "allocation", rows[k]);
                        Numbers(w, "scores", rows[k].Select((c, i) => plan.Score(i, c)));
                        w.WriteNumber("program", step.Program + 1);
                        w.WriteEndObject();
                    }

                    w.WriteEndArray();
                    Integers(w, "final", plan.Final);
                    Numbers(w, "finalScores", plan.Final.Select((c, i) => plan.Score(i, c)));
                    break;
                }
            }

            w.WriteEndObject();
        }

        return Encoding.UTF8.GetString(stream.ToArray()) + Environment.NewLine;
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

    private static void BaseFields(Utf8JsonWriter w, ScalabilityPlan plan)
    {
        Numbers(w, "shares", plan.Shares);
        Integers(w, "base", plan.Base);
    }

    private static void TransferSteps(Utf8JsonWriter w, ScalabilityPlan plan)
    {
        w.WriteStartArray("steps");
        foreach (CoreTransfer t in plan.MinimumTransfers)
        {
            w.WriteStartObject();
            w.WriteString("kind", "at-least-one");
            w.WriteNumber("from", t.From + 1);
            w.WriteNumber("to", t.To + 1);
            w.WriteEndObject();
        }

        w.WriteEndArray();
    }

    private static void Integers(Utf8JsonWriter w, string name, IEnumerable<int> values)
    {
        w.WriteStartArray(name);
        foreach (int v in values)
        {
            w.WriteNumberValue(v);
        }

        w.WriteEndArray();
    }

    private static void Numbers(Utf8JsonWriter w, string name, IEnumerable<double> values)
    {
        w.WriteStartArray(name);
        foreach (double v in values)
        {
            if (double.IsFinite(v))
            {
                w.WriteNumberValue(v);
            }
            else
            {
                w.WriteNullValue();
            }
        }

        w.WriteEndArray();
    }

    private static void Number(Utf8JsonWriter w, string name, double value)
    {
        if (double.IsFinite(value))
        {
            w.WriteNumber(name, value);
        }
        else
        {
            w.WriteNull(name);
        }
    }

    private static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
