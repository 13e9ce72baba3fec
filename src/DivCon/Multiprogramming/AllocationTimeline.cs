using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace DivCon.Multiprogramming;

/// <summary>
/// Every worker move of a <see cref="MultiProgramScheduler"/> with its time and reason, in a bounded ring (the
/// oldest moves are dropped past <see cref="Capacity"/>; <see cref="Dropped"/> counts them). Appending is a short
/// critical section on the repartitioning path only, never on a task's path. Exportable as a Chrome trace event file
/// (Perfetto, chrome://tracing) with one track per processor.
/// </summary>
public sealed class AllocationTimeline
{
    private readonly object _lock = new();
    private readonly AllocationMove[] _ring;
    private readonly Dictionary<int, string> _programNames = [];
    private readonly int _workers;
    private readonly IReadOnlyList<int?> _processors;
    private readonly long _origin;
    private long _count;

    internal AllocationTimeline(int capacity, int workers, IReadOnlyList<int?> processors)
    {
        _ring = new AllocationMove[capacity];
        _workers = workers;
        _processors = processors;
        _origin = Stopwatch.GetTimestamp();
    }

    /// <summary>How many moves the ring keeps.</summary>
    public int Capacity => _ring.Length;

    /// <summary>Moves recorded since the scheduler started, kept or dropped.</summary>
    public long Recorded
    {
        get
        {
            lock (_lock)
            {
                return _count;
            }
        }
    }

    /// <summary>Moves dropped because the ring was full.</summary>
    public long Dropped
    {
        get
        {
            lock (_lock)
            {
                return Math.Max(0, _count - _ring.Length);
            }
        }
    }

    /// <summary>The start of the timeline (<see cref="Stopwatch.GetTimestamp"/> ticks): when the scheduler started.</summary>
    public long OriginTimestamp => _origin;

    internal void NameProgram(int programId, string name)
    {
        lock (_lock)
        {
            _programNames[programId] = name;
        }
    }

    internal void Record(AllocationMove move)
    {
        lock (_lock)
        {
            _ring[_count % _ring.Length] = move;
            _count++;
        }
    }

    /// <summary>The moves kept, oldest first.</summary>
    public IReadOnlyList<AllocationMove> GetMoves()
    {
        lock (_lock)
        {
            long kept = Math.Min(_count, _ring.Length);
            var moves = new AllocationMove[kept];
            for (long i = 0; i < kept; i++)
            {
                moves[i] = _ring[(_count - kept + i) % _ring.Length];
            }

            return moves;
        }
    }

    /// <summary>
    /// Writes the timeline as Chrome trace event JSON: one track (thread) per processor, one complete ("X") event per
    /// span a worker served a program, and an instant ("i") event per move carrying its reason and trigger. Times
    /// are microseconds since the scheduler started; spans still open end at <paramref name="endTimestamp"/> (now
    /// when null).
    /// </summary>
    public void WriteChromeTrace(TextWriter writer, long? endTimestamp = null)
    {
        ArgumentNullException.ThrowIfNull(writer);
        IReadOnlyList<AllocationMove> moves = GetMoves();
        Dictionary<int, string> names;
        lock (_lock)
        {
            names = new Dictionary<int, string>(_programNames);
        }

        long end = endTimestamp ?? Stopwatch.GetTimestamp();
        var events = new List<string>();
        for (int w = 0; w < _workers; w++)
        {
            string track = _processors[w] is int p ? $"cpu {p}" : $"worker {w}";
            events.Add($"{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":{Tid(w)},\"args\":{{\"name\":{Json(track)}}}}}");
        }

        var open = new (int? Program, long Start)?[_workers];
        foreach (AllocationMove move in moves)
        {
            if (move.Worker < 0 || move.Worker >= _workers)
            {
                continue;
            }

            if (open[move.Worker] is { Program: int program, Start: long start })
            {
                events.Add(Span(move.Worker, program, start, move.Timestamp, names));
            }

            open[move.Worker] = (move.ToProgramId, move.Timestamp);
            string what = $"{Name(move.FromProgramId, names)} -> {Name(move.ToProgramId, names)}";
            events.Add(
                $"{{\"name\":{Json(what)},\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":{Tid(move.Worker)},\"ts\":{Micros(move.Timestamp)}," +
                $"\"args\":{{\"reason\":{Json(move.Reason.ToString())},\"trigger\":{Json(move.Trigger.ToString())}}}}}");
        }

        for (int w = 0; w < _workers; w++)
        {
            if (open[w] is { Program: int program, Start: long start })
            {
                events.Add(Span(w, program, start, Math.Max(start, end), names));
            }
        }

        writer.Write("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
        writer.Write(string.Join(",\n", events));
        writer.Write("\n]}\n");
    }

    /// <summary>Writes <see cref="WriteChromeTrace(TextWriter, long?)"/> to a file.</summary>
    public void WriteChromeTrace(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        using var writer = new StreamWriter(path, append: false, new UTF8Encoding(false));
        WriteChromeTrace(writer);
    }

    private int Tid(int worker) => _processors[worker] ?? worker;

    private string Span(int worker, int program, long start, long end, Dictionary<int, string> names)
        => $"{{\"name\":{Json(Name(program, names))},\"cat\":\"program\",\"ph\":\"X\",\"pid\":1,\"tid\":{Tid(worker)}," +
           $"\"ts\":{Micros(start)},\"dur\":{Micros(end) - Micros(start)},\"args\":{{\"program\":{program}}}}}";

    private static string Name(int? program, Dictionary<int, string> names)
        => program is int id ? (names.TryGetValue(id, out string? n) ? n : $"program {id}") : "idle";

    private long Micros(long timestamp) => (long)((timestamp - _origin) * (1_000_000.0 / Stopwatch.Frequency));

    private static string Json(string s)
    {
        var sb = new StringBuilder("\"");
        foreach (char c in s)
        {
            switch (c)
            {
                case '"': sb.Append("\\\""); break;
                case '\\': sb.Append("\\\\"); break;
                case < ' ': sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture)); break;
                default: sb.Append(c); break;
            }
        }

        return sb.Append('"').ToString();
    }
}
