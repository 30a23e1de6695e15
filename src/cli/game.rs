//! `tsume game`: play a game's moves and say how it ended.

use std::io::Write;

use tsume::core::game::Game;
use tsume::core::handicap::Handicap;
use tsume::core::{Move, UsiPosition};

use super::CliError;

/// Play a game's moves and say how it ended
///
/// The moves are played one by one as in a real game: an illegal move loses
/// (naming the rule it breaks), a side without a legal move loses, and the
/// fourth occurrence of a position is a draw (千日手) unless one side gave
/// check with every one of its moves since the first occurrence: that side
/// loses (連続王手の千日手). A move after the end is an error. Then, if
/// asked, the side to move declares a win by the 27-point rule (--declare)
/// or the players count for an impasse (--impasse).
///
/// Output: `sfen` (the final position), `moves` (how many were played),
/// `repetitions` (how often the final position has occurred), `points`
/// (impasse points, Black then White; a handicap's removed pieces count for
/// White), `result` (in English, `in progress` while the game goes on) and
/// `japanese`.
///
/// Examples:
///
///   tsume game position startpos moves 7g7f 3c3d 2h2b
///   tsume game --handicap 二枚落ち moves 5a4b 7g7f
///   tsume game "+R+B7/4K4/GGGGSSSS1/9/9/9/9/9/4k4 b 4N4L2Prb16p 1" --declare
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The start and the moves: `[position] startpos|sfen <SFEN>|<SFEN>
    /// [moves ...]`; with --handicap only `[moves] ...`
    #[arg(num_args = 0.., value_name = "POSITION")]
    position: Vec<String>,

    /// Start from a handicap set-up, by its KIF name (香落ち, 角落ち,
    /// 飛車落ち, 二枚落ち, ..., 歩三兵)
    #[arg(long, value_name = "NAME")]
    handicap: Option<String>,

    /// After the moves, the side to move declares a win (入玉宣言, the
    /// 27-point rule); a declaration that does not meet the rule loses
    #[arg(long, conflicts_with = "impasse")]
    declare: bool,

    /// After the moves, judge an impasse (持将棋): a side with fewer points
    /// than this loses (24 when no number is given; some rules say 27).
    /// Both kings must be in the opponent's camp
    #[arg(long, value_name = "POINTS", num_args = 0..=1, default_missing_value = "24")]
    impasse: Option<u32>,
}

pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let text = args.position.join(" ");
    // The words with their 1-based character columns and byte offsets.
    let mut words: Vec<(usize, usize, &str)> = Vec::new();
    let mut word_start: Option<(usize, usize)> = None;
    for (i, (b, c)) in text.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((column, sb)) = word_start.take() {
                words.push((column, sb, &text[sb..b]));
            }
        } else if word_start.is_none() {
            word_start = Some((i + 1, b));
        }
    }
    if let Some((column, sb)) = word_start {
        words.push((column, sb, &text[sb..]));
    }
    let moves_at = words.iter().position(|&(_, _, w)| w == "moves");
    let (start, first_move) = match &args.handicap {
        Some(name) => {
            let h: Handicap = name
                .parse()
                .map_err(|e| CliError::Input(format!("--handicap: {e}")))?;
            match moves_at {
                Some(0) => (h.position(), 1),
                None => (h.position(), 0),
                Some(_) => {
                    return Err(CliError::Input(format!(
                        "with --handicap, give only the moves (`moves 5a4b 7g7f ...`), not a position: {}",
                        tsume::input::quote(&text)
                    )));
                }
            }
        }
        None => {
            let end = moves_at.map_or(text.len(), |i| words[i].1);
            let head = &text[..end];
            if head.trim().is_empty() {
                return Err(CliError::Input(
                    "no position: expected `startpos`, an SFEN or `position ... moves ...`"
                        .to_string(),
                ));
            }
            let usi: UsiPosition = head.parse().map_err(|e| {
                CliError::Input(super::describe_position_error("<POSITION>", &text, &e))
            })?;
            (usi.start, moves_at.map_or(words.len(), |i| i + 1))
        }
    };
    let mut game = Game::new(start);
    for (n, &(column, _, word)) in words[first_move..].iter().enumerate() {
        let number = n + 1;
        let at = || {
            format!(
                "move {number} `{}` (column {column})",
                tsume::input::quote(word)
            )
        };
        let m: Move = word.parse().map_err(|e| {
            CliError::Input(format!(
                "{}: {e}{}",
                at(),
                super::show_text(&text, Some(column))
            ))
        })?;
        if let Some(o) = game.outcome() {
            return Err(CliError::Input(format!(
                "{} comes after the end of the game ({o}){}",
                at(),
                super::show_text(&text, Some(column))
            )));
        }
        // Only an ended game refuses a move, and that was tested above.
        let _ = game.play(m);
    }
    if args.declare {
        game.declare()
            .map_err(|e| CliError::Input(format!("--declare: {e}")))?;
    }
    if let Some(threshold) = args.impasse {
        game.impasse(threshold)
            .map_err(|e| CliError::Input(format!("--impasse {threshold}: {e}")))?;
    }
    let points = game.impasse_points();
    writeln!(out, "sfen {}", game.position())?;
    writeln!(out, "moves {}", game.moves().len())?;
    writeln!(out, "repetitions {}", game.repetitions())?;
    writeln!(out, "points {} {}", points[0], points[1])?;
    match game.outcome() {
        Some(o) => {
            writeln!(out, "result {o}")?;
            writeln!(out, "japanese {}", o.japanese())?;
        }
        None => {
            writeln!(out, "result in progress")?;
            writeln!(out, "japanese 対局中")?;
        }
    }
    Ok(())
}
