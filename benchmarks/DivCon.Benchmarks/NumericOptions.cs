using System.Globalization;

namespace DivCon.Benchmarks;

/// <summary>One numeric option of a benchmark command: its name, its placeholder in the usage line, its least value.</summary>
/// <param name="Name">The option, e.g. <c>--rounds</c>.</param>
/// <param name="Placeholder">Its value in the usage line, e.g. <c>N</c>.</param>
/// <param name="Min">The least value accepted.</param>
/// <param name="Set">Receives the value.</param>
/// <param name="Integer">Whether only whole numbers are accepted.</param>
public sealed record NumericOption(string Name, string Placeholder, double Min, Action<double> Set, bool Integer = true)
{
    /// <summary>
    /// Reads <paramref name="args"/> as pairs of a known option and a number at least its minimum, invariant culture.
    /// False (one line on standard error, naming every option) at the first unknown option or invalid value.
    /// </summary>
    public static bool TryParse(string command, string[] args, params NumericOption[] options)
    {
        for (int i = 0; i < args.Length; i++)
        {
            NumericOption? option = options.FirstOrDefault(o => o.Name == args[i]);
            if (option is not null && i + 1 < args.Length
                && double.TryParse(args[i + 1], NumberStyles.Float, CultureInfo.InvariantCulture, out double value) && value >= option.Min && (!option.Integer || (value == Math.Floor(value) && value <= int.MaxValue)))
            {
                option.Set(value);
                i++;
                continue;
            }

            string usage = string.Join(", ", options.Select(o => string.Create(CultureInfo.InvariantCulture, $"{o.Name} {o.Placeholder} ({o.Placeholder} >= {o.Min})")));
            Console.Error.WriteLine($"{command}: unknown or invalid option '{args[i]}'. Options: {usage}.");
            return false;
        }

        return true;
    }
}
