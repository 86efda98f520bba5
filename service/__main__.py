from service.cli import main

if __name__ == "__main__":  # worker processes (bots think in them) import this module too
    raise SystemExit(main())
