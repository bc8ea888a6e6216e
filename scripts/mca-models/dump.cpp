// dump: what an LLVM release's llvm-mca knows about instructions and
// processors, as JSON lines, for scripts/mca-models/generate.py.
//
// Built by scripts/mca-models/build-dump.sh against one LLVM (14 or 22), it
// uses the same library calls llvm-mca makes: the target's assembly parser
// turns text into MCInsts, mca::InstrBuilder turns each MCInst into the
// descriptor llvm-mca simulates, MCInstrAnalysis says which instructions
// break dependencies, and the MCInstPrinter prints what llvm-mca prints.
//
//   dump model    TRIPLE CPU[,CPU…]            processors, resources, registers
//   dump forms    TRIPLE CPU[,CPU…] FILE.s     one record per instruction
//   dump kernel   TRIPLE CPU FILE.s            the instructions of a file in order
//
// A `forms` record also says which operand values change the scheduling
// class a variant resolves to, the zero-idiom and dependency-breaking
// answers, and move elimination (the probes): the tables then resolve an
// instruction of a student's file without LLVM.

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/MCA/Context.h"
#include "llvm/MCA/CustomBehaviour.h"
#include "llvm/MCA/HWEventListener.h"
#include "llvm/MCA/Pipeline.h"
#include "llvm/MCA/SourceMgr.h"
#include "llvm/MCA/InstrBuilder.h"
#include "llvm/MCA/Instruction.h"
#include "llvm/MCA/Support.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormattedStream.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Config/llvm-config.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace llvm;

namespace {

std::string esc(StringRef s) {
  std::string o = "\"";
  for (char c : s) {
    switch (c) {
    case '"': o += "\\\""; break;
    case '\\': o += "\\\\"; break;
    case '\n': o += "\\n"; break;
    case '\t': o += "\\t"; break;
    case '\r': o += "\\r"; break;
    default:
      if ((unsigned char)c < 0x20) {
        char b[8];
        snprintf(b, sizeof b, "\\u%04x", c);
        o += b;
      } else {
        o += c;
      }
    }
  }
  return o + "\"";
}

struct Captured {
  MCInst Inst;
  unsigned Line;
};

class Collector final : public MCStreamer {
public:
  std::vector<Captured> &Out;
  SourceMgr &SM;
  MCAsmParser *Parser = nullptr;
  Collector(MCContext &C, std::vector<Captured> &O, SourceMgr &S)
      : MCStreamer(C), Out(O), SM(S) {}
  void emitInstruction(const MCInst &Inst, const MCSubtargetInfo &) override {
    unsigned Line = 0;
    if (Inst.getLoc().isValid())
      Line = SM.FindLineNumber(Inst.getLoc());
    else if (Parser)
      Line = SM.FindLineNumber(Parser->getTok().getLoc());
    Out.push_back({Inst, Line});
  }
  bool emitSymbolAttribute(MCSymbol *, MCSymbolAttr) override { return true; }
#if LLVM_VERSION_MAJOR >= 22
  void emitCommonSymbol(MCSymbol *, uint64_t, Align) override {}
  void emitZerofill(MCSection *, MCSymbol *, uint64_t, Align, SMLoc) override {}
#else
  void emitCommonSymbol(MCSymbol *, uint64_t, unsigned) override {}
  void emitZerofill(MCSection *, MCSymbol *, uint64_t, unsigned, SMLoc) override {}
#endif
};

struct Env {
  std::string TripleName;
  const Target *T = nullptr;
  std::unique_ptr<MCRegisterInfo> MRI;
  std::unique_ptr<MCAsmInfo> MAI;
  std::unique_ptr<MCInstrInfo> MCII;
  std::unique_ptr<MCInstrAnalysis> MCIA;
  std::unique_ptr<MCSubtargetInfo> ParseSTI;
  std::unique_ptr<MCInstPrinter> IP;
};

struct Cpu {
  std::string Name;
  std::unique_ptr<MCSubtargetInfo> STI;
  std::vector<uint64_t> Masks;
#if LLVM_VERSION_MAJOR >= 22
  std::unique_ptr<mca::InstrumentManager> IM;
#endif
  std::unique_ptr<mca::InstrBuilder> IB;
  std::unique_ptr<mca::InstrPostProcess> IPP;
};

[[noreturn]] void die(const std::string &m) {
  errs() << "dump: " << m << "\n";
  exit(2);
}

Env makeEnv(const std::string &TripleName, const std::string &Attrs) {
  Env E;
  E.TripleName = TripleName;
  std::string Err;
#if LLVM_VERSION_MAJOR >= 22
  E.T = TargetRegistry::lookupTarget(Triple(TripleName), Err);
#else
  E.T = TargetRegistry::lookupTarget(TripleName, Err);
#endif
  if (!E.T)
    die(Err);
  MCTargetOptions Opts;
#if LLVM_VERSION_MAJOR >= 22
  E.MRI.reset(E.T->createMCRegInfo(Triple(TripleName)));
  E.MAI.reset(E.T->createMCAsmInfo(*E.MRI, Triple(TripleName), Opts));
#else
  E.MRI.reset(E.T->createMCRegInfo(TripleName));
  E.MAI.reset(E.T->createMCAsmInfo(*E.MRI, TripleName, Opts));
#endif
  E.MCII.reset(E.T->createMCInstrInfo());
  E.MCIA.reset(E.T->createMCInstrAnalysis(E.MCII.get()));
#if LLVM_VERSION_MAJOR >= 22
  E.ParseSTI.reset(E.T->createMCSubtargetInfo(Triple(TripleName), "", Attrs));
#else
  E.ParseSTI.reset(E.T->createMCSubtargetInfo(TripleName, "", Attrs));
#endif
  E.IP.reset(E.T->createMCInstPrinter(Triple(TripleName), 0, *E.MAI, *E.MCII,
                                      *E.MRI));
  return E;
}

std::unique_ptr<Cpu> makeCpu(Env &E, const std::string &Name) {
  auto C = std::make_unique<Cpu>();
  C->Name = Name;
#if LLVM_VERSION_MAJOR >= 22
  C->STI.reset(E.T->createMCSubtargetInfo(Triple(E.TripleName), Name, ""));
#else
  C->STI.reset(E.T->createMCSubtargetInfo(E.TripleName, Name, ""));
#endif
  if (!C->STI->isCPUStringValid(Name))
    die("unknown cpu " + Name);
  const MCSchedModel &SM = C->STI->getSchedModel();
  if (!SM.hasInstrSchedModel())
    die("cpu " + Name + " has no scheduling model");
  C->Masks.resize(SM.getNumProcResourceKinds());
  mca::computeProcResourceMasks(SM, C->Masks);
#if LLVM_VERSION_MAJOR >= 22
  C->IM.reset(E.T->createInstrumentManager(*C->STI, *E.MCII));
  if (!C->IM)
    C->IM = std::make_unique<mca::InstrumentManager>(*C->STI, *E.MCII);
  C->IB = std::make_unique<mca::InstrBuilder>(*C->STI, *E.MCII, *E.MRI,
                                              E.MCIA.get(), *C->IM, 100);
#else
  C->IB = std::make_unique<mca::InstrBuilder>(*C->STI, *E.MCII, *E.MRI,
                                              E.MCIA.get());
#endif
  C->IPP.reset(E.T->createInstrPostProcess(*C->STI, *E.MCII));
  if (!C->IPP)
    C->IPP = std::make_unique<mca::InstrPostProcess>(*C->STI, *E.MCII);
  return C;
}

// A parsed file: the MCInsts and everything their expressions point into.
struct Parsed {
  std::unique_ptr<SourceMgr> SrcMgr;
  std::unique_ptr<MCContext> Ctx;
  std::unique_ptr<MCObjectFileInfo> MOFI;
  std::vector<Captured> Insts;
};

std::unique_ptr<Parsed> parseFile(Env &E, const std::string &Path,
                                  const MCSubtargetInfo &STI) {
  auto Buf = MemoryBuffer::getFileOrSTDIN(Path);
  if (!Buf)
    die("cannot read " + Path);
  auto P = std::make_unique<Parsed>();
  P->SrcMgr = std::make_unique<SourceMgr>();
  P->SrcMgr->AddNewSourceBuffer(std::move(*Buf), SMLoc());
  P->Ctx = std::make_unique<MCContext>(Triple(E.TripleName), E.MAI.get(),
                                       E.MRI.get(), &STI, P->SrcMgr.get());
  P->MOFI.reset(E.T->createMCObjectFileInfo(*P->Ctx, /*PIC=*/false));
  P->Ctx->setObjectFileInfo(P->MOFI.get());
  Collector Str(*P->Ctx, P->Insts, *P->SrcMgr);
  formatted_raw_ostream FOS(nulls());
  std::unique_ptr<MCInstPrinter> IPtmp(E.T->createMCInstPrinter(
      Triple(E.TripleName), 0, *E.MAI, *E.MCII, *E.MRI));
  E.T->createAsmTargetStreamer(Str, FOS, IPtmp.get()
#if LLVM_VERSION_MAJOR < 22
                               ,
                               true
#endif
  );
  std::unique_ptr<MCAsmParser> Parser(
      createMCAsmParser(*P->SrcMgr, *P->Ctx, Str, *E.MAI));
  Str.Parser = Parser.get();
  MCTargetOptions Opts;
  std::unique_ptr<MCTargetAsmParser> TAP(
      E.T->createMCAsmParser(STI, *Parser, *E.MCII, Opts));
  if (!TAP)
    die("no asm parser");
  Parser->setTargetParser(*TAP);
  Parser->getLexer().setLexMasmIntegers(true);
  // Errors are printed on stderr by the parser; lines that fail are simply
  // absent from the output (the generator compares line numbers).
  Parser->Run(false);
  return P;
}

std::string regName(const Env &E, unsigned R) {
  if (!R)
    return "";
  return E.MRI->getName(R);
}

std::string operandJson(const Env &E, const MCOperand &Op) {
  if (Op.isReg())
    return "{\"r\":" + esc(regName(E, Op.getReg())) + "}";
  if (Op.isImm())
    return "{\"i\":" + std::to_string(Op.getImm()) + "}";
  if (Op.isSFPImm())
    return "{\"sf\":" + std::to_string(Op.getSFPImm()) + "}";
  if (Op.isDFPImm())
    return "{\"df\":" + std::to_string(Op.getDFPImm()) + "}";
  if (Op.isExpr())
    return "{\"e\":1}";
  if (Op.isInst())
    return "{\"n\":1}";
  return "{}";
}

std::string printInst(const Env &E, const MCSubtargetInfo &STI, const MCInst &I) {
  std::string S;
  raw_string_ostream OS(S);
  E.IP->printInst(&I, 0, "", STI, OS);
  OS.flush();
  return S;
}

// ------------------------------------------------------------ descriptors

// The scheduling class an MCInst resolves to on a cpu, as llvm-mca
// resolves it (variants until a plain class), or -1.
int resolveClass(const Env &E, const Cpu &C, const MCInst &I) {
  const MCSchedModel &SM = C.STI->getSchedModel();
  unsigned ID = E.MCII->get(I.getOpcode()).getSchedClass();
  unsigned CPUID = SM.getProcessorID();
  int guard = 0;
  while (ID && SM.getSchedClassDesc(ID)->isVariant()) {
    ID = C.STI->resolveVariantSchedClass(ID, &I, E.MCII.get(), CPUID);
    if (++guard > 64)
      return -1;
  }
  if (!ID)
    return -1;
  return (int)ID;
}

// The per-instance answers that depend on operand values, as one string.
std::string signature(const Env &E, const Cpu &C, const MCInst &I) {
  int SC = resolveClass(E, C, I);
  std::string S = std::to_string(SC);
  if (!E.MCIA)
    return S;
  unsigned ProcID = C.STI->getSchedModel().getProcessorID();
  APInt Mask;
  bool Z = E.MCIA->isZeroIdiom(I, Mask, ProcID);
  bool D = Z || E.MCIA->isDependencyBreaking(I, Mask, ProcID);
  S += Z ? "|z" : "|-";
  S += D ? "d" : "-";
  if (D) {
    S += ":";
    for (unsigned b = 0; b < Mask.getBitWidth(); ++b)
      S += Mask[b] ? '1' : '0';
  }
  S += E.MCIA->isOptimizableRegisterMove(I, ProcID) ? "|m" : "|-";
  return S;
}

std::string clearsMask(const Env &E, const mca::InstrDesc &D, const MCInst &I) {
  APInt WriteMask(D.Writes.size(), 0);
  if (E.MCIA && !D.Writes.empty())
    E.MCIA->clearsSuperRegisters(*E.MRI, I, WriteMask);
  std::string S;
  for (unsigned b = 0; b < WriteMask.getBitWidth(); ++b)
    S += WriteMask[b] ? '1' : '0';
  return S;
}

int maskIndex(const Cpu &C, uint64_t M) {
  for (unsigned i = 1; i < C.Masks.size(); ++i)
    if (C.Masks[i] == M)
      return (int)i;
  return -1;
}

// The descriptor llvm-mca builds, and the instance's reads and writes.
std::string instructionJson(const Env &E, Cpu &C, const MCInst &I) {
#if LLVM_VERSION_MAJOR >= 22
  SmallVector<mca::Instrument *> IVec;
  auto InstOrErr = C.IB->createInstruction(I, IVec);
#else
  auto InstOrErr = C.IB->createInstruction(I);
#endif
  if (!InstOrErr) {
    std::string Msg;
    handleAllErrors(InstOrErr.takeError(),
                    [&](const ErrorInfoBase &EI) { Msg = EI.message(); });
    return "{\"error\":" + esc(Msg) + "}";
  }
  std::unique_ptr<mca::Instruction> Inst = std::move(*InstOrErr);
#if LLVM_VERSION_MAJOR >= 22
  C.IPP->postProcessInstruction(*Inst, I);
#else
  C.IPP->postProcessInstruction(Inst, I);
#endif
  const mca::InstrDesc &D = Inst->getDesc();
  const MCSchedModel &SM = C.STI->getSchedModel();
  std::string S = "{";
  S += "\"class\":" + std::to_string(D.SchedClassID);
  S += ",\"variant\":" +
       std::to_string(SM.getSchedClassDesc(E.MCII->get(I.getOpcode()).getSchedClass())
                          ->isVariant());
  S += ",\"uops\":" + std::to_string(D.NumMicroOps);
  S += ",\"maxlat\":" + std::to_string(D.MaxLatency);
  S += ",\"res\":[";
  for (size_t k = 0; k < D.Resources.size(); ++k) {
    const auto &R = D.Resources[k];
    if (k)
      S += ",";
    int idx = maskIndex(C, R.first);
    S += "[" + esc(idx >= 0 ? SM.getProcResource(idx)->Name : "?") + "," +
         std::to_string(R.second.CS.begin()) + "," +
         std::to_string(R.second.CS.end()) + "," +
         std::to_string(R.second.NumUnits) + "," +
         (R.second.isReserved() ? "1" : "0") + "]";
  }
  S += "]";
  // Raw masks, as computeProcResourceMasks numbers the resources.
  S += ",\"buffers\":" + std::to_string(D.UsedBuffers);
  S += ",\"units\":" + std::to_string(D.UsedProcResUnits);
  S += ",\"groups\":" + std::to_string(D.UsedProcResGroups);
  S += ",\"immediate\":" + std::to_string(D.MustIssueImmediately);
#if LLVM_VERSION_MAJOR >= 22
  S += ",\"overlap\":" + std::to_string(D.HasPartiallyOverlappingGroups);
#else
  S += ",\"overlap\":0";
#endif
  S += ",\"writes\":[";
  for (size_t k = 0; k < D.Writes.size(); ++k) {
    const auto &W = D.Writes[k];
    if (k)
      S += ",";
    S += "[" + std::to_string(W.OpIndex) + "," + std::to_string(W.Latency) +
         "," + esc(regName(E, W.RegisterID)) + "," +
         std::to_string(W.SClassOrWriteResourceID) + "," +
         (W.IsOptionalDef ? "1" : "0") + "]";
  }
  S += "],\"reads\":[";
  for (size_t k = 0; k < D.Reads.size(); ++k) {
    const auto &R = D.Reads[k];
    if (k)
      S += ",";
    S += "[" + std::to_string(R.OpIndex) + "," + std::to_string(R.UseIndex) +
         "," + esc(regName(E, R.RegisterID)) + "," +
         std::to_string(R.SchedClassID) + "]";
  }
  S += "]";
  // ReadAdvance entries of the resolved class.
  const MCSchedClassDesc *SCD = SM.getSchedClassDesc(D.SchedClassID);
  S += ",\"advance\":[";
  if (SCD) {
    auto RA = C.STI->getReadAdvanceEntries(*SCD);
    for (size_t k = 0; k < RA.size(); ++k) {
      if (k)
        S += ",";
      S += "[" + std::to_string(RA[k].UseIdx) + "," +
           std::to_string(RA[k].WriteResourceID) + "," +
           std::to_string(RA[k].Cycles) + "]";
    }
    S += "],\"begin_group\":" + std::to_string(SCD->BeginGroup);
    S += ",\"end_group\":" + std::to_string(SCD->EndGroup);
    S += ",\"retire_ooo\":" + std::to_string(SCD->RetireOOO);
    // Raw class data, for --instruction-tables's [3] and [8].
    S += ",\"wpr\":[";
    for (const MCWriteProcResEntry *P = C.STI->getWriteProcResBegin(SCD),
                                   *End = C.STI->getWriteProcResEnd(SCD);
         P != End; ++P) {
      if (P != C.STI->getWriteProcResBegin(SCD))
        S += ",";
      S += "[" + esc(SM.getProcResource(P->ProcResourceIdx)->Name) + "," +
#if LLVM_VERSION_MAJOR >= 22
           std::to_string(P->ReleaseAtCycle) + "," +
           std::to_string(P->AcquireAtCycle) +
#else
           std::to_string(P->Cycles) + ",0" +
#endif
           "]";
    }
    S += "],\"wlat\":[";
    for (unsigned w = 0; w < SCD->NumWriteLatencyEntries; ++w) {
      const MCWriteLatencyEntry *WL = C.STI->getWriteLatencyEntry(SCD, w);
      S += (w ? "," : "") + std::string("[") + std::to_string(WL->Cycles) + "," +
           std::to_string(WL->WriteResourceID) + "]";
    }
    S += "]";
  } else {
    S += "]";
  }
  // Each def with the index of its WriteDescriptor: createInstruction
  // walks D.Writes in order and leaves out optional defs of no register
  // (and, from LLVM 22, constant registers); the target's post-processing
  // may then remove defs (x86: the stack pointer of push, pop and call),
  // which are listed as "killed".
  std::vector<std::pair<unsigned, unsigned>> Made; // (write index, reg)
  for (unsigned w = 0; w < D.Writes.size(); ++w) {
    const auto &WD = D.Writes[w];
    unsigned R = WD.isImplicitWrite()
                     ? (unsigned)WD.RegisterID
                     : (unsigned)I.getOperand(WD.OpIndex).getReg();
    if (WD.IsOptionalDef && !R)
      continue;
#if LLVM_VERSION_MAJOR >= 22
    if (E.MRI->isConstant(R))
      continue;
#endif
    Made.push_back({w, R});
  }
  S += ",\"defs\":[";
  bool first = true;
  size_t M = 0;
  std::string Killed;
  for (const mca::WriteState &W : Inst->getDefs()) {
    while (M < Made.size() && Made[M].second != W.getRegisterID()) {
      Killed += (Killed.empty() ? "" : ",") + std::to_string(Made[M].first);
      ++M;
    }
    unsigned Widx = M < Made.size() ? Made[M].first : 999;
    if (M < Made.size())
      ++M;
    if (!first)
      S += ",";
    first = false;
    S += "[" + esc(regName(E, W.getRegisterID())) + "," +
         (W.clearsSuperRegisters() ? "1" : "0") + "," +
         (W.isWriteZero() ? "1" : "0") + "," + std::to_string(Widx) + "]";
  }
  for (; M < Made.size(); ++M)
    Killed += (Killed.empty() ? "" : ",") + std::to_string(Made[M].first);
  S += "],\"killed\":[" + Killed + "]";
  S += ",\"uses\":[";
  first = true;
  for (const mca::ReadState &R : Inst->getUses()) {
    if (!first)
      S += ",";
    first = false;
    S += "[" + esc(regName(E, R.getRegisterID())) + "," +
         std::to_string(R.getDescriptor().OpIndex) + "," +
         std::to_string(R.getDescriptor().UseIndex) + "," +
         (R.isIndependentFromDef() ? "1" : "0") + "]";
  }
  S += "]";
  S += ",\"move\":" + std::to_string(Inst->isOptimizableMove());
#if LLVM_VERSION_MAJOR >= 22
  S += ",\"load\":" + std::to_string(Inst->getMayLoad());
  S += ",\"store\":" + std::to_string(Inst->getMayStore());
  S += ",\"side\":" + std::to_string(Inst->getHasSideEffects());
#else
  S += ",\"load\":" + std::to_string(D.MayLoad);
  S += ",\"store\":" + std::to_string(D.MayStore);
  S += ",\"side\":" + std::to_string(D.HasSideEffects);
#endif
  S += ",\"lbar\":" + std::to_string(Inst->isALoadBarrier());
  S += ",\"sbar\":" + std::to_string(Inst->isAStoreBarrier());
  S += ",\"clears\":\"" + clearsMask(E, D, I) + "\"";
  S += ",\"sig\":" + esc(signature(E, C, I));
  return S + "}";
}

// ------------------------------------------------------------ probes

const MCOperandInfo &opInfo(const MCInstrDesc &D, unsigned k) {
#if LLVM_VERSION_MAJOR >= 22
  return D.operands()[k];
#else
  return D.OpInfo[k];
#endif
}

std::vector<MCPhysReg> implicitDefs(const MCInstrDesc &D) {
#if LLVM_VERSION_MAJOR >= 22
  auto R = D.implicit_defs();
  return std::vector<MCPhysReg>(R.begin(), R.end());
#else
  std::vector<MCPhysReg> V;
  for (unsigned k = 0; k < D.getNumImplicitDefs(); ++k)
    V.push_back(D.getImplicitDefs()[k]);
  return V;
#endif
}

std::vector<MCPhysReg> implicitUses(const MCInstrDesc &D) {
#if LLVM_VERSION_MAJOR >= 22
  auto R = D.implicit_uses();
  return std::vector<MCPhysReg>(R.begin(), R.end());
#else
  std::vector<MCPhysReg> V;
  for (unsigned k = 0; k < D.getNumImplicitUses(); ++k)
    V.push_back(D.getImplicitUses()[k]);
  return V;
#endif
}

// The register class an operand names directly (not through a pointer or
// hardware-mode lookup), or -1.
int directClass(const MCOperandInfo &O) {
#if LLVM_VERSION_MAJOR >= 22
  if (O.isLookupRegClassByHwMode())
    return -1;
#else
  if (O.isLookupPtrRegClass())
    return -1;
#endif
  return O.RegClass;
}

// The smallest register class of at least 8 registers that holds R.
int classOf(const Env &E, unsigned R) {
  int Best = -1;
  unsigned BestSize = ~0u;
  for (unsigned C = 0; C < E.MRI->getNumRegClasses(); ++C) {
    const MCRegisterClass &RC = E.MRI->getRegClass(C);
    if (RC.getNumRegs() >= 8 && RC.getNumRegs() < BestSize && RC.contains(R)) {
      Best = (int)C;
      BestSize = RC.getNumRegs();
    }
  }
  return Best;
}

// Values an immediate operand is tried with.
std::vector<int64_t> probeImms() {
  std::vector<int64_t> V;
  for (int64_t v = -2; v <= 70; ++v)
    V.push_back(v);
  for (int64_t v : {0x80, 0x88, 0xff, 0x100, 0x1ff, 0x200, 0x3ff, 0x400,
                    0xfff, 0x1000, 0xffff, 0x10000, 0x7fffffff, -129, -128,
                    -65536})
    V.push_back(v);
  return V;
}

// One operand value tried in place of the instance's.
struct Alt {
  std::string Name; // "i:5", "r:RAX", "r:" (no register)
  MCOperand Op;
};

std::vector<Alt> altsFor(const Env &E, const MCInst &I, unsigned k) {
  std::vector<Alt> A;
  const MCOperand &Op = I.getOperand(k);
  if (Op.isImm()) {
    for (int64_t v : probeImms())
      A.push_back({"i:" + std::to_string(v), MCOperand::createImm(v)});
  } else if (Op.isReg()) {
    std::set<unsigned> Regs;
    Regs.insert(0);
    const MCInstrDesc &D = E.MCII->get(I.getOpcode());
    int RCId = k < D.getNumOperands() ? directClass(opInfo(D, k)) : -1;
    if (RCId < 0 && Op.getReg())
      RCId = classOf(E, Op.getReg());
    if (RCId >= 0)
      for (unsigned R : E.MRI->getRegClass(RCId))
        Regs.insert(R);
    for (unsigned j = 0; j < I.getNumOperands(); ++j)
      if (I.getOperand(j).isReg())
        Regs.insert(I.getOperand(j).getReg());
    for (unsigned R : Regs)
      A.push_back({"r:" + regName(E, R), MCOperand::createReg(R)});
  }
  return A;
}

// Whether two registers share any part.
bool overlap(const MCRegisterInfo &MRI, unsigned A, unsigned B) {
  if (A == B)
    return true;
  if (!A || !B)
    return false;
  return MRI.isSubRegister(A, B) || MRI.isSubRegister(B, A);
}

// The register class of operand k of I, or -1.
int opClass(const Env &E, const MCInst &I, unsigned k) {
  const MCInstrDesc &D = E.MCII->get(I.getOpcode());
  int RC = k < D.getNumOperands() ? directClass(opInfo(D, k)) : -1;
  if (RC < 0 && I.getOperand(k).isReg() && I.getOperand(k).getReg())
    RC = classOf(E, I.getOperand(k).getReg());
  return RC;
}

// The operand that operand k is tied to (a two-address source), or -1.
int tiedTo(const Env &E, const MCInst &I, unsigned k) {
  const MCInstrDesc &D = E.MCII->get(I.getOpcode());
  if (k >= D.getNumOperands())
    return -1;
  return D.getOperandConstraint(k, MCOI::TIED_TO);
}

// I with its registers all different (tied operands kept equal): the
// instance the features are probed from.
MCInst distinctBase(const Env &E, const MCInst &I) {
  MCInst J = I;
  std::vector<unsigned> Used;
  for (unsigned k = 0; k < J.getNumOperands(); ++k) {
    MCOperand &Op = J.getOperand(k);
    if (!Op.isReg() || !Op.getReg())
      continue;
    int T = tiedTo(E, I, k);
    if (T >= 0 && (unsigned)T < k) {
      Op = J.getOperand(T);
      continue;
    }
    int RC = opClass(E, I, k);
    unsigned Pick = Op.getReg();
    bool Clash = false;
    for (unsigned U : Used)
      Clash |= overlap(*E.MRI, U, Pick);
    if (Clash && RC >= 0) {
      for (unsigned R : E.MRI->getRegClass(RC)) {
        bool Free = true;
        for (unsigned U : Used)
          Free &= !overlap(*E.MRI, U, R);
        if (Free) {
          Pick = R;
          break;
        }
      }
    }
    Op = MCOperand::createReg(Pick);
    Used.push_back(Pick);
  }
  return J;
}

// Sets operand k of J to R, and every operand tied to k.
void setReg(const Env &E, MCInst &J, unsigned k, unsigned R) {
  J.getOperand(k) = MCOperand::createReg(R);
  for (unsigned t = 0; t < J.getNumOperands(); ++t)
    if (tiedTo(E, J, t) == (int)k)
      J.getOperand(t) = MCOperand::createReg(R);
}

// A feature of an instance that may change its signature: two registers
// being the same (`pair`), or the value of one operand (`op`).
struct Feature {
  bool Pair = false;
  unsigned I = 0, K = 0;
  std::vector<std::string> Sigs;                       // class -> sig
  std::vector<MCOperand> Reps;                         // class -> value (op)
  std::vector<std::pair<std::string, unsigned>> Labels; // op: label -> class
};

std::string opLabel(const Env &E, const MCOperand &Op) {
  if (Op.isImm())
    return "v:" + std::to_string(Op.getImm());
  if (Op.isReg())
    return Op.getReg() ? "abs:" + regName(E, Op.getReg()) : std::string("none");
  return "?";
}

// Which features change the signature on this cpu, and the signature of
// every combination of them (from an instance whose registers differ).
std::string probeJson(const Env &E, const Cpu &C, const MCInst &I0,
                      std::set<std::string> &ExtraSigs,
                      std::vector<MCInst> &SigInsts) {
  MCInst I = distinctBase(E, I0);
  std::string Base = signature(E, C, I);
  auto note = [&](const MCInst &J, const std::string &Sig) {
    if (!ExtraSigs.count(Sig)) {
      ExtraSigs.insert(Sig);
      SigInsts.push_back(J);
    }
  };
  note(I, Base);
  std::vector<Feature> Rel;
  unsigned N = I.getNumOperands();
  // Pairs of registers made equal.
  for (unsigned i = 0; i < N; ++i)
    for (unsigned j = i + 1; j < N; ++j) {
      const MCOperand &A = I.getOperand(i), &B = I.getOperand(j);
      if (!A.isReg() || !B.isReg() || !A.getReg() || !B.getReg())
        continue;
      if (tiedTo(E, I, j) == (int)i || tiedTo(E, I, i) == (int)j)
        continue;
      int RC = opClass(E, I, j);
      if (RC < 0 || !E.MRI->getRegClass(RC).contains(A.getReg()))
        continue;
      MCInst J = I;
      setReg(E, J, j, A.getReg());
      std::string Sig = signature(E, C, J);
      note(J, Sig);
      if (Sig != Base) {
        Feature F;
        F.Pair = true;
        F.I = i;
        F.K = j;
        F.Sigs = {Base, Sig};
        Rel.push_back(F);
      }
    }
  // Values of single operands. For a variant scheduling class the values
  // are tried from several bases (each immediate at 0 and 1, each register
  // absent or, when absent, present; and up to three of these changes
  // together), so that conditions that only show together (a scale other
  // than 1, or base, index and displacement all present) are found; two
  // values are one class when every base gives them the same signature.
  std::vector<MCInst> Bases{I};
  const MCSchedModel &SMd = C.STI->getSchedModel();
  bool Variant =
      SMd.getSchedClassDesc(E.MCII->get(I.getOpcode()).getSchedClass())->isVariant();
  if (Variant) {
    std::vector<std::pair<unsigned, MCOperand>> Mods;
    for (unsigned j = 0; j < N; ++j) {
      const MCOperand &Op = I.getOperand(j);
      if (Op.isImm()) {
        for (int64_t v : {0, 1})
          if (Op.getImm() != v)
            Mods.push_back({j, MCOperand::createImm(v)});
      } else if (Op.isReg() && Op.getReg()) {
        Mods.push_back({j, MCOperand::createReg(0)});
      } else if (Op.isReg()) {
        // A register of the operand's class that no other operand uses.
        int RC = opClass(E, I, j);
        if (RC >= 0)
          for (unsigned R : E.MRI->getRegClass(RC)) {
            bool Free = true;
            for (unsigned t = 0; t < N; ++t)
              Free &= !(I.getOperand(t).isReg() &&
                        overlap(*E.MRI, I.getOperand(t).getReg(), R));
            if (Free) {
              Mods.push_back({j, MCOperand::createReg(R)});
              break;
            }
          }
      }
    }
    auto apply = [&](MCInst &J, const std::pair<unsigned, MCOperand> &M) {
      if (M.second.isReg())
        setReg(E, J, M.first, M.second.getReg());
      else
        J.getOperand(M.first) = M.second;
    };
    // Up to three changes together (two when there are many): LEA's
    // three-operand condition needs a base, a scale of 1 and a
    // displacement at once before the index shows.
    size_t Depth = Mods.size() <= 10 ? 3 : 2;
    std::function<void(const MCInst &, size_t, size_t, unsigned)> grow =
        [&](const MCInst &J, size_t From, size_t Left, unsigned UsedOps) {
          for (size_t a = From; a < Mods.size(); ++a) {
            unsigned Bit = 1u << std::min<unsigned>(Mods[a].first, 31);
            if (UsedOps & Bit)
              continue;
            MCInst K = J;
            apply(K, Mods[a]);
            Bases.push_back(K);
            if (Left > 1)
              grow(K, a + 1, Left - 1, UsedOps | Bit);
          }
        };
    grow(I, 0, Depth, 0);
  }
  for (unsigned k = 0; k < N; ++k) {
    std::vector<Alt> A = altsFor(E, I, k);
    if (A.empty())
      continue;
    Feature F;
    F.K = k;
    std::vector<std::string> Vecs;
    auto vecOf = [&](const MCOperand &V) {
      std::string Vec;
      for (size_t b = 0; b < Bases.size(); ++b) {
        MCInst J = Bases[b];
        if (V.isReg())
          setReg(E, J, k, V.getReg());
        else
          J.getOperand(k) = V;
        std::string Sig = signature(E, C, J);
        note(J, Sig);
        Vec += Sig + "/";
      }
      return Vec;
    };
    Vecs.push_back(vecOf(I.getOperand(k)));
    F.Sigs.push_back(Base);
    F.Reps.push_back(I.getOperand(k));
    bool differs = false;
    for (const Alt &X : A) {
      // Another operand's register is a pair feature, not a value.
      bool Other = false;
      if (X.Op.isReg() && X.Op.getReg())
        for (unsigned j = 0; j < N; ++j)
          Other |= j != k && I.getOperand(j).isReg() &&
                   overlap(*E.MRI, I.getOperand(j).getReg(), X.Op.getReg());
      if (Other)
        continue;
      std::string Vec = vecOf(X.Op);
      unsigned cls = 0;
      while (cls < Vecs.size() && Vecs[cls] != Vec)
        ++cls;
      if (cls == Vecs.size()) {
        Vecs.push_back(Vec);
        F.Sigs.push_back(Vec.substr(0, Vec.find('/')));
        F.Reps.push_back(X.Op);
      }
      differs |= cls != 0;
      F.Labels.push_back({opLabel(E, X.Op), cls});
    }
    if (differs)
      Rel.push_back(F);
  }
  std::string S = "{\"base\":" + esc(Base) + ",\"features\":[";
  for (size_t n = 0; n < Rel.size(); ++n) {
    if (n)
      S += ",";
    if (Rel[n].Pair) {
      S += "{\"pair\":[" + std::to_string(Rel[n].I) + "," + std::to_string(Rel[n].K) + "]}";
      continue;
    }
    S += "{\"op\":" + std::to_string(Rel[n].K) + ",\"base\":" +
         esc(opLabel(E, I.getOperand(Rel[n].K))) + ",\"labels\":{";
    for (size_t l = 0; l < Rel[n].Labels.size(); ++l)
      S += (l ? "," : "") + esc(Rel[n].Labels[l].first) + ":" +
           std::to_string(Rel[n].Labels[l].second);
    S += "}}";
  }
  S += "],\"classes\":[";
  for (size_t n = 0; n < Rel.size(); ++n) {
    S += n ? ",[" : "[";
    for (size_t c = 0; c < Rel[n].Sigs.size(); ++c)
      S += (c ? "," : "") + esc(Rel[n].Sigs[c]);
    S += "]";
  }
  S += "],\"combos\":[";
  size_t Total = 1;
  for (auto &F : Rel)
    Total = std::min<size_t>(Total * F.Sigs.size(), 4097);
  if (Rel.size() > 1 && Total <= 4096) {
    std::vector<unsigned> Digit(Rel.size(), 0);
    for (size_t t = 0; t < Total; ++t) {
      MCInst J = I;
      // Values first, then the pairs (made equal to the value chosen).
      for (size_t n = 0; n < Rel.size(); ++n)
        if (!Rel[n].Pair && Digit[n]) {
          if (Rel[n].Reps[Digit[n]].isReg())
            setReg(E, J, Rel[n].K, Rel[n].Reps[Digit[n]].getReg());
          else
            J.getOperand(Rel[n].K) = Rel[n].Reps[Digit[n]];
        }
      for (size_t n = 0; n < Rel.size(); ++n)
        if (Rel[n].Pair && Digit[n])
          setReg(E, J, Rel[n].K, J.getOperand(Rel[n].I).getReg());
      std::string Sig = signature(E, C, J);
      note(J, Sig);
      S += (t ? ",[[" : "[[");
      for (size_t n = 0; n < Rel.size(); ++n)
        S += (n ? "," : "") + std::to_string(Digit[n]);
      S += "]," + esc(Sig) + "]";
      for (size_t n = 0; n < Rel.size(); ++n) {
        if (++Digit[n] < Rel[n].Sigs.size())
          break;
        Digit[n] = 0;
      }
    }
  }
  return S + "]}";
}

// ------------------------------------------------------------ commands

std::string instrInfoJson(const Env &E, const MCInst &I) {
  const MCInstrDesc &D = E.MCII->get(I.getOpcode());
  std::string S = "{\"name\":" + esc(E.MCII->getName(I.getOpcode()));
  S += ",\"num_operands\":" + std::to_string(D.getNumOperands());
  S += ",\"num_defs\":" + std::to_string(D.getNumDefs());
  S += ",\"variadic\":" + std::to_string(D.isVariadic());
  S += ",\"variadic_defs\":" + std::to_string(D.variadicOpsAreDefs());
  S += ",\"optional_def\":" + std::to_string(D.hasOptionalDef());
  S += ",\"may_load\":" + std::to_string(D.mayLoad());
  S += ",\"may_store\":" + std::to_string(D.mayStore());
  S += ",\"side_effects\":" + std::to_string(D.hasUnmodeledSideEffects());
  S += ",\"call\":" + std::to_string(D.isCall());
  S += ",\"return\":" + std::to_string(D.isReturn());
  S += ",\"branch\":" + std::to_string(D.isBranch());
  S += ",\"barrier\":" + std::to_string(D.isBarrier());
  S += ",\"ops\":[";
  for (unsigned k = 0; k < D.getNumOperands(); ++k) {
    const MCOperandInfo &O = opInfo(D, k);
    if (k)
      S += ",";
    int Tied = D.getOperandConstraint(k, MCOI::TIED_TO);
    int RC = directClass(O);
    S += "[" + std::to_string((int)O.OperandType) + "," +
         std::to_string(RC) + "," +
         (RC >= 0 ? esc(E.MRI->getRegClassName(&E.MRI->getRegClass(RC)))
                  : std::string("\"\"")) +
         "," + std::to_string(O.isOptionalDef()) + "," +
         std::to_string(Tied) + "]";
  }
  S += "],\"implicit_defs\":[";
  bool first = true;
  for (MCPhysReg R : implicitDefs(D)) {
    if (!first)
      S += ",";
    first = false;
    S += esc(regName(E, R));
  }
  S += "],\"implicit_uses\":[";
  first = true;
  for (MCPhysReg R : implicitUses(D)) {
    if (!first)
      S += ",";
    first = false;
    S += esc(regName(E, R));
  }
  return S + "]}";
}

void cmdForms(Env &E, std::vector<std::unique_ptr<Cpu>> &Cpus,
              const std::string &Path, bool Probe) {
  // forms: a superset of features, so that every form parses; kernel: the
  // cpu's own features, as llvm-mca parses.
  const MCSubtargetInfo &PSTI = Probe ? *E.ParseSTI : *Cpus[0]->STI;
  std::unique_ptr<Parsed> P = parseFile(E, Path, PSTI);
  std::map<std::pair<size_t, unsigned>, std::string> ProbeCache;
  for (const Captured &C : P->Insts) {
    const MCInst &I = C.Inst;
    std::string S = "{\"line\":" + std::to_string(C.Line);
    S += ",\"opcode\":" + esc(E.MCII->getName(I.getOpcode()));
    S += ",\"print\":" + esc(printInst(E, *E.ParseSTI, I));
    S += ",\"operands\":[";
    for (unsigned k = 0; k < I.getNumOperands(); ++k) {
      if (k)
        S += ",";
      S += operandJson(E, I.getOperand(k));
    }
    S += "],\"info\":" + instrInfoJson(E, I);
    S += ",\"cpus\":{";
    for (size_t n = 0; n < Cpus.size(); ++n) {
      Cpu &Cp = *Cpus[n];
      if (n)
        S += ",";
      S += esc(Cp.Name) + ":{\"print\":" + esc(printInst(E, *Cp.STI, I));
      S += ",\"inst\":" + instructionJson(E, Cp, I);
      if (Probe) {
        // Probes depend on the opcode, not on the instance: one per opcode.
        auto Key = std::make_pair(n, (unsigned)I.getOpcode());
        auto It = ProbeCache.find(Key);
        if (It == ProbeCache.end()) {
          std::set<std::string> Seen;
          Seen.insert(signature(E, Cp, I));
          std::vector<MCInst> Others;
          std::string P = ",\"probe\":" + probeJson(E, Cp, I, Seen, Others);
          // The descriptors of the other classes the probes reach.
          P += ",\"variants\":[";
          for (size_t v = 0; v < Others.size(); ++v) {
            if (v)
              P += ",";
            P += instructionJson(E, Cp, Others[v]);
          }
          P += "]";
          It = ProbeCache.emplace(Key, P).first;
        }
        S += It->second;
      }
      S += "}";
    }
    S += "}}";
    outs() << S << "\n";
  }
}

void cmdModel(Env &E, std::vector<std::unique_ptr<Cpu>> &Cpus) {
  // Registers of the target.
  std::string S = "{\"registers\":[";
  for (unsigned R = 1; R < E.MRI->getNumRegs(); ++R) {
    if (R > 1)
      S += ",";
    S += "[" + esc(E.MRI->getName(R)) + ",[";
    bool first = true;
    for (MCPhysReg Sub : E.MRI->subregs(R)) {
      if (!first)
        S += ",";
      first = false;
      S += esc(E.MRI->getName(Sub));
    }
    S += "],[";
    first = true;
    for (MCPhysReg Sup : E.MRI->superregs(R)) {
      if (!first)
        S += ",";
      first = false;
      S += esc(E.MRI->getName(Sup));
    }
#if LLVM_VERSION_MAJOR >= 22
    S += "]," + std::to_string(E.MRI->isConstant(R)) + "," +
         std::to_string(E.MRI->isArtificial(R)) + "]";
#else
    S += "],0,0]";
#endif
  }
  S += "],\"classes\":{";
  for (unsigned C = 0; C < E.MRI->getNumRegClasses(); ++C) {
    const MCRegisterClass &RC = E.MRI->getRegClass(C);
    if (C)
      S += ",";
    S += esc(E.MRI->getRegClassName(&RC)) + ":[" + std::to_string(C) + ",[";
    bool first = true;
    for (unsigned R : RC) {
      if (!first)
        S += ",";
      first = false;
      S += esc(E.MRI->getName(R));
    }
    S += "]]";
  }
  S += "}}";
  outs() << "{\"target\":" << S << "}\n";

  for (auto &Cp : Cpus) {
    const MCSchedModel &SM = Cp->STI->getSchedModel();
    std::string M = "{\"cpu\":" + esc(Cp->Name);
    M += ",\"issue_width\":" + std::to_string(SM.IssueWidth);
    M += ",\"micro_op_buffer_size\":" + std::to_string(SM.MicroOpBufferSize);
    M += ",\"loop_micro_op_buffer_size\":" +
         std::to_string(SM.LoopMicroOpBufferSize);
    M += ",\"load_latency\":" + std::to_string(SM.LoadLatency);
    M += ",\"high_latency\":" + std::to_string(SM.HighLatency);
    M += ",\"mispredict_penalty\":" + std::to_string(SM.MispredictPenalty);
    M += ",\"out_of_order\":" + std::to_string(SM.isOutOfOrder());
    M += ",\"processor_id\":" + std::to_string(SM.getProcessorID());
    M += ",\"resources\":[";
    for (unsigned i = 0; i < SM.getNumProcResourceKinds(); ++i) {
      const MCProcResourceDesc *P = SM.getProcResource(i);
      if (i)
        M += ",";
      M += "{\"name\":" + esc(P->Name ? P->Name : "") +
           ",\"units\":" + std::to_string(P->NumUnits) +
           ",\"super\":" + std::to_string(P->SuperIdx) +
           ",\"buffer\":" + std::to_string(P->BufferSize) +
           ",\"mask\":" + std::to_string(Cp->Masks[i]) + ",\"sub\":[";
      if (P->SubUnitsIdxBegin)
        for (unsigned u = 0; u < P->NumUnits; ++u) {
          if (u)
            M += ",";
          M += std::to_string(P->SubUnitsIdxBegin[u]);
        }
      M += "]}";
    }
    M += "]";
    if (SM.hasExtraProcessorInfo()) {
      const MCExtraProcessorInfo &X = SM.getExtraProcessorInfo();
      M += ",\"extra\":{\"rob\":" + std::to_string(X.ReorderBufferSize);
      M += ",\"retire\":" + std::to_string(X.MaxRetirePerCycle);
      M += ",\"lq\":" + std::to_string(X.LoadQueueID);
      M += ",\"sq\":" + std::to_string(X.StoreQueueID);
      M += ",\"files\":[";
      for (unsigned f = 0; f < X.NumRegisterFiles; ++f) {
        const MCRegisterFileDesc &F = X.RegisterFiles[f];
        if (f)
          M += ",";
        M += "{\"name\":" + esc(F.Name ? F.Name : "") +
             ",\"regs\":" + std::to_string(F.NumPhysRegs) +
             ",\"max_moves\":" + std::to_string(F.MaxMovesEliminatedPerCycle) +
             ",\"zero_only\":" + std::to_string(F.AllowZeroMoveEliminationOnly) +
             ",\"costs\":[";
        for (unsigned c = 0; c < F.NumRegisterCostEntries; ++c) {
          const MCRegisterCostEntry &CE =
              X.RegisterCostTable[F.RegisterCostEntryIdx + c];
          if (c)
            M += ",";
          M += "[" +
               esc(E.MRI->getRegClassName(
                   &E.MRI->getRegClass(CE.RegisterClassID))) +
               "," + std::to_string(CE.Cost) + "," +
               std::to_string(CE.AllowMoveElimination) + "]";
        }
        M += "]}";
      }
      M += "]}";
    }
    outs() << M << "}\n";
  }
}

// `trace`: llvm-mca's own pipeline on a kernel, every event printed with
// its cycle, and at issue the critical register dependence of each
// instruction (for checking the simulator of course-engine).
class Tracer : public mca::HWEventListener {
public:
  unsigned Cycle = 0;
  void onCycleBegin() override { ++Cycle; }
  void onEvent(const mca::HWInstructionEvent &E) override {
    const char *T = "?";
    switch (E.Type) {
    case mca::HWInstructionEvent::Dispatched: T = "dispatched"; break;
    case mca::HWInstructionEvent::Pending: T = "pending"; break;
    case mca::HWInstructionEvent::Ready: T = "ready"; break;
    case mca::HWInstructionEvent::Issued: T = "issued"; break;
    case mca::HWInstructionEvent::Executed: T = "executed"; break;
    case mca::HWInstructionEvent::Retired: T = "retired"; break;
    default: break;
    }
    const mca::Instruction &I = *E.IR.getInstruction();
    outs() << (Cycle - 1) << " " << E.IR.getSourceIndex() << " " << T;
    if (E.Type == mca::HWInstructionEvent::Dispatched ||
        E.Type == mca::HWInstructionEvent::Issued) {
      for (const mca::ReadState &R : I.getUses())
        outs() << " use(" << R.getRegisterID() << (R.isReady() ? ",ready" : ",wait")
               << (R.isPending() ? ",pending" : "") << ")";
      for (const mca::WriteState &W : I.getDefs())
        outs() << " def(" << W.getRegisterID() << ",lat=" << W.getLatency()
               << ",users=" << W.getNumUsers() << ")";
    }
    outs() << "\n";
  }
};

void cmdTrace(Env &E, Cpu &C, const std::string &Path, unsigned Iterations) {
  std::unique_ptr<Parsed> P = parseFile(E, Path, *C.STI);
  SmallVector<std::unique_ptr<mca::Instruction>> Seq;
  for (const Captured &X : P->Insts) {
#if LLVM_VERSION_MAJOR >= 22
    SmallVector<mca::Instrument *> IVec;
    auto I = C.IB->createInstruction(X.Inst, IVec);
#else
    auto I = C.IB->createInstruction(X.Inst);
#endif
    if (!I) {
      consumeError(I.takeError());
      die("unsupported instruction");
    }
    std::unique_ptr<mca::Instruction> Inst = std::move(*I);
#if LLVM_VERSION_MAJOR >= 22
    C.IPP->postProcessInstruction(*Inst, X.Inst);
#else
    C.IPP->postProcessInstruction(Inst, X.Inst);
#endif
    Seq.emplace_back(std::move(Inst));
  }
#if LLVM_VERSION_MAJOR >= 22
  mca::CircularSourceMgr S(Seq, Iterations);
#else
  mca::SourceMgr S(Seq, Iterations);
#endif
  mca::Context Ctx(*E.MRI, *C.STI);
  mca::PipelineOptions PO(0, 0, 0, 0, 0, 0, true);
  mca::CustomBehaviour CB(*C.STI, S, *E.MCII);
  auto Pipe = Ctx.createDefaultPipeline(PO, S, CB);
  Tracer T;
  Pipe->addEventListener(&T);
  if (auto Err = Pipe->run())
    die("pipeline failed");
}

} // namespace

int main(int argc, char **argv) {
  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  InitializeAllAsmParsers();
  // The targets' instruction post-processing (x86: fences, the stack pointer).
  InitializeAllTargetMCAs();
  if (argc < 4)
    die("usage: dump model|forms|kernel TRIPLE CPU[,CPU] [FILE] [ATTRS]");
  std::string Cmd = argv[1], TripleName = argv[2];
  std::vector<std::string> CpuNames;
  for (StringRef Rest = argv[3]; !Rest.empty();) {
    auto P = Rest.split(',');
    CpuNames.push_back(P.first.str());
    Rest = P.second;
  }
  std::string Attrs = argc > 5 && Cmd != "trace" ? argv[5] : "";
  Env E = makeEnv(TripleName, Attrs);
  std::vector<std::unique_ptr<Cpu>> Cpus;
  for (auto &N : CpuNames)
    Cpus.push_back(makeCpu(E, N));
  if (Cmd == "model") {
    cmdModel(E, Cpus);
  } else if (Cmd == "trace") {
    cmdTrace(E, *Cpus[0], argv[4], argc > 5 ? atoi(argv[5]) : 1);
  } else if (Cmd == "forms" || Cmd == "kernel") {
    if (argc < 5)
      die("missing FILE");
    cmdForms(E, Cpus, argv[4], Cmd == "forms");
  } else {
    die("unknown command " + Cmd);
  }
  return 0;
}
