using System.Buffers;
using System.Diagnostics;
using System.Text;
using System.Text.Json;

namespace DivCon.Multiprogramming;

/// <summary>
/// Every worker move of a <see cref="MultiProgramScheduler"/> with its time and reason, in a bounded ring (the
/// oldest moves are dropped past <see cref="Capacity"/>; <see cref="Dropped"/> counts them). Appending is a short
/// critical section on the repartitioning path only, never on a task's path. Exportable as a Chrome trace event file
/// (Perfetto, chrome://tracing) with one track per processor.
/// </summary>
public sealed class AllocationTimeline
{
    // Track ids of the pending-move tracks: past any processor number.
    private const int PendingTrackBase = 1 << 20;

    private readonly object _lock = new();
    private readonly AllocationMove[] _ring;
    private readonly Dictionary<int, string> _programNames = [];
    private readonly int _workers;
    private readonly IReadOnlyList<int?> _processors;
    private readonly long _origin;
    private readonly PendingMoveEnded[] _pending;
    private long _count;
    private long _pendingCount;

    internal AllocationTimeline(int capacity, int workers, IReadOnlyList<int?> processors)
    {
        _ring = new AllocationMove[capacity];
        _pending = new PendingMoveEnded[capacity];
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

    /// <summary>The shortest wait of a move on a running task that <see cref="GetPendingMoves"/> records: 1 ms.</summary>
    public static TimeSpan PendingMoveThreshold { get; } = TimeSpan.FromMilliseconds(1);

    /// <summary>
    /// Moves that waited at least <see cref="PendingMoveThreshold"/> on a running task, each recorded when the worker
    /// finally switched, with its age then; oldest first, the newest <see cref="Capacity"/> kept. The move itself is in
    /// <see cref="GetMoves"/> at the time it was decided.
    /// </summary>
    public IReadOnlyList<PendingMoveEnded> GetPendingMoves()
    {
        lock (_lock)
        {
            return KeptNeedsLock(_pending, _pendingCount);
        }
    }

    // On the worker's thread as it switches (rare: only moves that waited on a task).
    internal void RecordPendingMove(PendingMoveEnded move)
    {
        lock (_lock)
        {
            _pending[_pendingCount % _pending.Length] = move;
            _pendingCount++;
        }
    }

    /// <summary>The moves kept, oldest first.</summary>
    public IReadOnlyList<AllocationMove> GetMoves()
    {
        lock (_lock)
        {
            return KeptNeedsLock(_ring, _count);
        }
    }

    // The entries a ring still holds after `count` appends, oldest first.
    private static T[] KeptNeedsLock<T>(T[] ring, long count)
    {
        long kept = Math.Min(count, ring.Length);
        var entries = new T[kept];
        for (long i = 0; i < kept; i++)
        {
            entries[i] = ring[(count - kept + i) % ring.Length];
        }

        return entries;
    }

    /// <summary>
    /// Writes the timeline as Chrome trace event JSON: one track (thread) per processor, one complete ("X") event per
    /// span a worker was assigned to a program, and an instant ("i") event per move carrying its reason and trigger; and,
    /// for a worker whose moves waited on running tasks, a second track ("… pending") with one complete event per such
    /// wait (<see cref="GetPendingMoves"/>: from the decision until the worker switched, with its age in ms): there the
    /// worker still served the program it was leaving. Times are microseconds since the scheduler started; spans still
    /// open end at <paramref name="endTimestamp"/> (now when null).
    /// </summary>
    public void WriteChromeTrace(TextWriter writer, long? endTimestamp = null)
    {
        ArgumentNullException.ThrowIfNull(writer);
        IReadOnlyList<AllocationMove> moves = GetMoves();
        IReadOnlyList<PendingMoveEnded> pending = GetPendingMoves();
        Dictionary<int, string> names;
        lock (_lock)
        {
            names = new Dictionary<int, string>(_programNames);
        }

        long end = endTimestamp ?? Stopwatch.GetTimestamp();
        var buffer = new ArrayBufferWriter<byte>();
        using (var json = new Utf8JsonWriter(buffer, new JsonWriterOptions { Indented = true }))
        {
            json.WriteStartObject();
            json.WriteString("displayTimeUnit", "ms");
            json.WriteStartArray("traceEvents");
            for (int w = 0; w < _workers; w++)
            {
                Event(json, "thread_name", "M", w);
                json.WriteStartObject("args");
                json.WriteString("name", _processors[w] is int p ? $"cpu {p}" : $"worker {w}");
                json.WriteEndObject();
                json.WriteEndObject();
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
                    Span(json, move.Worker, program, start, move.Timestamp, names);
                }

                open[move.Worker] = (move.ToProgramId, move.Timestamp);
                Event(json, $"{Name(move.FromProgramId, names)} -> {Name(move.ToProgramId, names)}", "i", move.Worker);
                json.WriteString("s", "t");
                json.WriteNumber("ts", Micros(move.Timestamp));
                json.WriteStartObject("args");
                json.WriteString("reason", move.Reason.ToString());
                json.WriteString("trigger", move.Trigger.ToString());
                json.WriteEndObject();
                json.WriteEndObject();
            }

            for (int w = 0; w < _workers; w++)
            {
                if (open[w] is { Program: int program, Start: long start })
                {
                    Span(json, w, program, start, Math.Max(start, end), names);
                }
            }

            var pendingTrack = new bool[_workers];
            foreach (PendingMoveEnded move in pending)
            {
                if (move.Worker < 0 || move.Worker >= _workers)
                {
                    continue;
                }

                if (!pendingTrack[move.Worker])
                {
                    pendingTrack[move.Worker] = true;
                    Event(json, "thread_name", "M", move.Worker, pendingTrack: true);
                    json.WriteStartObject("args");
                    json.WriteString("name", (_processors[move.Worker] is int p ? $"cpu {p}" : $"worker {move.Worker}") + " pending");
                    json.WriteEndObject();
                    json.WriteEndObject();
                }

                Event(json, $"pending: {Name(move.FromProgramId, names)} -> {Name(move.ToProgramId, names)}", "X", move.Worker, pendingTrack: true);
                json.WriteString("cat", "pending-move");
                json.WriteNumber("ts", Micros(move.DecidedTimestamp));
                json.WriteNumber("dur", Math.Max(0, Micros(move.Timestamp) - Micros(move.DecidedTimestamp)));
                json.WriteStartObject("args");
                json.WriteNumber("age_ms", Math.Round(move.Age.TotalMilliseconds, 3));
                json.WriteString("served", Name(move.FromProgramId, names));
                json.WriteString("assigned", Name(move.ToProgramId, names));
                json.WriteEndObject();
                json.WriteEndObject();
            }

            json.WriteEndArray();
            json.WriteEndObject();
        }

        writer.Write(Encoding.UTF8.GetString(buffer.WrittenSpan));
        writer.Write('\n');
    }

    /// <summary>Writes <see cref="WriteChromeTrace(TextWriter, long?)"/> to a file.</summary>
    public void WriteChromeTrace(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        using var writer = new StreamWriter(path, append: false, new UTF8Encoding(false));
        WriteChromeTrace(writer);
    }

    // Opens an event object with its name, phase and track; the caller adds the rest and closes it.
    private void Event(Utf8JsonWriter json, string name, string phase, int worker, bool pendingTrack = false)
    {
        json.WriteStartObject();
        json.WriteString("name", name);
        json.WriteString("ph", phase);
        json.WriteNumber("pid", 1);
        json.WriteNumber("tid", pendingTrack ? PendingTrackBase + Tid(worker) : Tid(worker));
    }

    private void Span(Utf8JsonWriter json, int worker, int program, long start, long end, Dictionary<int, string> names)
    {
        Event(json, Name(program, names), "X", worker);
        json.WriteString("cat", "program");
        json.WriteNumber("ts", Micros(start));
        json.WriteNumber("dur", Micros(end) - Micros(start));
        json.WriteStartObject("args");
        json.WriteNumber("program", program);
        json.WriteEndObject();
        json.WriteEndObject();
    }

    private int Tid(int worker) => _processors[worker] ?? worker;

    private static string Name(int? program, Dictionary<int, string> names)
        => program is int id ? (names.TryGetValue(id, out string? n) ? n : $"program {id}") : "idle";

    private long Micros(long timestamp) => (long)((timestamp - _origin) * (1_000_000.0 / Stopwatch.Frequency));
}
