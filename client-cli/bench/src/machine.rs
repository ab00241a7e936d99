//! What the machine tells about itself: the load average, and the memory of a local server
//! found by the port it listens on (Linux `/proc`; elsewhere nothing is found).

use std::path::Path;

/// The 1, 5 and 15 minute load averages, if `/proc/loadavg` can be read.
pub fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut fields = text.split_whitespace().map(str::parse::<f64>);
    Some([
        fields.next()?.ok()?,
        fields.next()?.ok()?,
        fields.next()?.ok()?,
    ])
}

/// The resident set size of process `pid`, in KiB.
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The CPU time process `pid` has used (user and system), in seconds.
pub fn cpu_seconds(pid: u32) -> Option<f64> {
    /// Linux counts `/proc/PID/stat` times in USER_HZ, 100 a second on every architecture.
    const TICKS_PER_SECOND: f64 = 100.0;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which may hold spaces, ends with ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let (user, system): (f64, f64) = (fields.get(11)?.parse().ok()?, fields.get(12)?.parse().ok()?);
    Some((user + system) / TICKS_PER_SECOND)
}

/// The process listening on the port of `url`, when the host is this machine.
pub fn local_server_pid(url: &str) -> Option<u32> {
    let authority = url.split("://").nth(1).unwrap_or(url);
    let authority = authority.split('/').next()?;
    let (host, port) = authority.rsplit_once(':')?;
    let port: u16 = port.parse().ok()?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let local = host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified());
    if !local {
        return None;
    }
    let inodes: Vec<String> = ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .filter_map(|table| std::fs::read_to_string(table).ok())
        .flat_map(|text| listening_inodes(&text, port))
        .collect();
    if inodes.is_empty() {
        return None;
    }
    let targets: Vec<String> = inodes.iter().map(|i| format!("socket:[{i}]")).collect();
    std::fs::read_dir("/proc")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .find(|pid| holds_socket(&Path::new("/proc").join(pid.to_string()), &targets))
}

/// Inodes of the sockets listening on `port` in a `/proc/net/tcp` table.
fn listening_inodes(table: &str, port: u16) -> Vec<String> {
    const LISTEN: &str = "0A";
    table
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let local = fields.get(1)?;
            let (_, hex_port) = local.rsplit_once(':')?;
            let listening = u16::from_str_radix(hex_port, 16).ok()? == port
                && fields.get(3).copied() == Some(LISTEN);
            listening.then(|| fields.get(9).map(|inode| (*inode).to_owned()))?
        })
        .collect()
}

/// Whether the process at `proc_dir` has one of `targets` (`socket:[inode]`) open.
fn holds_socket(proc_dir: &Path, targets: &[String]) -> bool {
    let Ok(fds) = std::fs::read_dir(proc_dir.join("fd")) else {
        return false;
    };
    fds.filter_map(Result::ok).any(|fd| {
        std::fs::read_link(fd.path())
            .ok()
            .and_then(|link| link.to_str().map(|l| targets.iter().any(|t| t == l)))
            .unwrap_or(false)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listening_sockets_are_found_by_port() {
        let table = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:C383 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 100 0 0 10 0
   1: 0100007F:C383 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 4343 1 0000000000000000 20 4 30 10 -1";
        assert_eq!(listening_inodes(table, 50051), ["4242"]);
        assert!(listening_inodes(table, 80).is_empty());
    }

    #[test]
    fn this_process_is_measured_and_remote_hosts_are_not_searched() {
        assert!(rss_kib(std::process::id()).is_some_and(|kib| kib > 0));
        assert_eq!(local_server_pid("http://192.0.2.1:50051"), None);
        assert_eq!(local_server_pid("not a url"), None);
    }

    #[test]
    fn a_local_listener_is_found() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("address").port();
        assert_eq!(
            local_server_pid(&format!("http://127.0.0.1:{port}")),
            Some(std::process::id())
        );
    }
}
