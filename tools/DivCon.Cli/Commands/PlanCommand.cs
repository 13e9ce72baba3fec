using System.CommandLine;
using System.Globalization;
using System.Text.Json;
using DivCon.Harness.Plans;
using DivCon.Harness.Reporting;
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
        var tasks = CommandInput.Declare<string?>("--tasks",
            "Each program's available tasks, comma-separated (non-negative integers); required by task-availability and idle-lending.");
        var tables = CommandInput.Declare<string?>("--tables",
            "For hill-climbing: each program's scalability table as cores:speedup pairs, programs separated by ';', e.g. '1:1,4:3.5,8:2;1:1,8:8'.");
        var policy = CommandInput.Declare<string>("--policy", "The policy to show.", TaskAvailabilityPolicy.PolicyName);
        policy.AcceptOnlyFromAmong([.. PartitioningPolicies.Names]);
        var json = CommandInput.Declare<bool>("--json", "Print JSON (fields shares, base, capped, steps, final) instead of a table.");

        var command = new Command("plan", "Show a partitioning policy's decision step by step for given cores, speedups and available tasks.")
        {
            cores, speedups, tasks, tables, policy, json,
        };
        command.SetAction(async (parseResult, cancellationToken) =>
        {
            string policyName = parseResult.GetValue(policy) ?? TaskAvailabilityPolicy.PolicyName;
            PartitioningInput? input = Parse(
                parseResult.GetValue(cores),
                parseResult.GetValue(speedups) ?? string.Empty,
                parseResult.GetValue(tasks),
                parseResult.GetValue(tables),
                policyName,
                out var problems);
            if (await ExperimentRunner.ReportAsync(parseResult, "divcon plan", problems))
            {
                return CliApp.UsageError;
            }

            string text = parseResult.GetValue(json)
                ? JsonSerializer.Serialize(PlanReport.Record(policyName, input!), HarnessJsonContext.Files.PlanRecord) + Environment.NewLine
                : PlanReport.Text(policyName, input!);
            await parseResult.InvocationConfiguration.Output.WriteAsync(text.AsMemory(), cancellationToken);
            return 0;
        });
        return command;
    }

    /// <summary>Checks every option value; returns the policy input, or null with every problem (one sentence each).</summary>
    internal static PartitioningInput? Parse(int cores, string speedups, string? tasks, string? tables, string policy, out List<string> problems)
    {
        problems = [];
        problems.AddIf(cores <= 0, $"--cores must be a positive number of cores; got {cores}.");

        string[] speedupTokens = Split(speedups, ',');
        problems.AddIf(speedupTokens.Length == 0, "--speedups needs at least one value, e.g. --speedups 15.18,10.43,9.71.");
        double[] s = Values(speedupTokens, "--speedups", "a number", problems,
            (string text, out double x) => double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out x),
            (text, x) => x > 0 && !double.IsInfinity(x) ? null : $"must be a positive finite speedup; got {text}");

        int[]? t = null;
        if (tasks is not null)
        {
            string[] taskTokens = Split(tasks, ',');
            t = Values(taskTokens, "--tasks", "a whole number", problems,
                (string text, out int n) => int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out n),
                (_, n) => n >= 0 ? null : $"must not be negative; got {n}");
            problems.AddIf(taskTokens.Length != speedupTokens.Length, $"--tasks has {taskTokens.Length} values but --speedups has {speedupTokens.Length}; give one of each per program.");
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
        return new PartitioningInput(cores, programs);
    }

    private delegate bool TryParse<T>(string text, out T value);

    /// <summary>
    /// Each token parsed as a value of <paramref name="kind"/> and checked (null: fine, else what is wrong with it); one
    /// problem line per bad token.
    /// </summary>
    private static T[] Values<T>(string[] tokens, string option, string kind, List<string> problems, TryParse<T> parse, Func<string, T, string?> check) =>
        [.. tokens.Select((token, i) =>
        {
            string? wrong = parse(token, out T value) ? check(token, value) : $"('{token}') is not {kind}";
            problems.AddIf(wrong is not null, $"{option} value {i + 1} {wrong}.");
            return value;
        })];

    private static ScalabilityTable?[] ParseTables(string tables, int programs, List<string> problems)
    {
        string[] perProgram = tables.Split(';');
        problems.AddIf(perProgram.Length != programs, $"--tables has {perProgram.Length} tables but --speedups has {programs} values; give one table per program (';' between tables).");

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
                problems.Add($"--tables: table {p + 1}: {e.Message.Split(" (Parameter", 2)[0]}");
            }
        }

        return result;
    }

    private static string[] Split(string text, char separator) =>
        text.Split(separator, StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
}
